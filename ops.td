// ops.td — the single definition of every fuserc op.
//
// fuserc-tblgen (tblgen/) turns this file into the op kinds, the op info
// tables the frontends, verifier and interpreter use, and docs/ops.md.
// Adding an op means adding a def here; nothing else lists ops by hand.
//
// Expressions:
//   cuda / cudaInt  CUDA C++ over the operands $0, $1, $2 (already in the
//                   computation type) and attributes $name (substituted by
//                   their value). cudaInt is used when the computation type
//                   is an integer or bool type.
//   cpu / cpuInt    C++ over a, b, c (double for cpu, int64_t for cpuInt)
//                   and `attrs` (the op's attributes), with helpers from
//                   ir/interp/ReferenceMath.h. The reference interpreter
//                   rounds the result to the op's dtype afterwards.
// An empty expression means the op has no such domain (the dtype rule
// guarantees it is never asked for).

//===----------------------------------------------------------------------===//
// Attribute types and specs
//===----------------------------------------------------------------------===//

class AttrType<string kindName, string describe> {
  string kind = kindName;          // fuserc::AttrKind enumerator
  string description = describe;   // for docs and diagnostics
  list<string> choices = [];       // Enum only
}
def IntAttr        : AttrType<"Int", "integer">;
def NumberAttr     : AttrType<"Number", "number">;
def BoolAttr       : AttrType<"Bool", "true or false">;
def DTypeAttr      : AttrType<"DType", "dtype">;
def AxisAttr       : AttrType<"Axis", "axis">;
def AxisListAttr   : AttrType<"AxisList", "list of axes">;
def ExtentAttr     : AttrType<"Extent", "extent (integer or symbol)">;
def ExtentListAttr : AttrType<"ExtentList", "list of extents">;
class EnumAttr<list<string> values> : AttrType<"Enum", "one of the listed strings"> {
  let choices = values;
}

// An attribute of an op. An empty default on an optional attribute means
// "absent unless given" (the op's shape or dtype rule decides what that
// means, e.g. slice's end defaults to the extent of the sliced dimension).
class Attr<string attrName, AttrType attrType, string defaultValue, bit isRequired> {
  string name = attrName;
  AttrType type = attrType;
  string default = defaultValue;
  bit required = isRequired;
}
class Req<string n, AttrType t> : Attr<n, t, "", 1>;
class Opt<string n, AttrType t, string d = ""> : Attr<n, t, d, 0>;

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

class OperandKind<string kindName, string describe> {
  string kind = kindName;
  string description = describe;
}
def AnyTensor   : OperandKind<"Tensor", "tensor, scalar input or literal">;
def IndexTensor : OperandKind<"Index", "integer tensor">;
def ScalarInput : OperandKind<"Scalar", "scalar input">;
def TensorList  : OperandKind<"Variadic", "one or more tensors">;

class Arg<string argName, OperandKind argKind> {
  string name = argName;
  OperandKind kind = argKind;
}

//===----------------------------------------------------------------------===//
// Dtype rules
//===----------------------------------------------------------------------===//

class DTypeRule<string ruleName, string describe> {
  string name = ruleName;
  string description = describe;
}
def Promote : DTypeRule<"Promote",
  "PyTorch type promotion of the operands (literals do not widen tensors)">;
def PromoteFloat : DTypeRule<"PromoteFloat",
  "type promotion of the operands; bool and integer results become f32">;
def PromoteToBool : DTypeRule<"PromoteToBool",
  "operands are promoted to a common type for the computation; the result is bool">;
def PromoteIntegral : DTypeRule<"PromoteIntegral",
  "type promotion of bool or integer operands; floating-point operands are an error">;
def WhereRule : DTypeRule<"Where",
  "the condition must be bool; the result is the promotion of the two branches">;
def FromAttr : DTypeRule<"FromAttr", "the dtype attribute">;
def SameAsFirst : DTypeRule<"SameAsFirst", "the dtype of the first operand">;
def SameFloat : DTypeRule<"SameFloat",
  "the dtype of the first operand, which must be floating point">;
def ReduceRule : DTypeRule<"Reduce",
  "the dtype attribute if given; otherwise bool and integer inputs give i64, others keep their dtype">;
def ReduceKeep : DTypeRule<"ReduceKeep", "the dtype of the input">;
def IndexRule : DTypeRule<"Index", "i64: a position along a dim">;
def ReduceFloat : DTypeRule<"ReduceFloat",
  "the dtype attribute if given; otherwise the input dtype, which must be floating point">;

//===----------------------------------------------------------------------===//
// Shape rules (families): each is implemented once in the frontend's shape
// inference and once in the reference interpreter.
//===----------------------------------------------------------------------===//

class ShapeRule<string ruleName, string describe> {
  string name = ruleName;
  string description = describe;
}
def ElementwiseShape  : ShapeRule<"Elementwise", "NumPy-style broadcast of the operands">;
def ReductionShape    : ShapeRule<"Reduction", "the input with `axes` (or `dim`) removed, or kept as 1 with keepdim=true">;
def BroadcastInDimShape : ShapeRule<"BroadcastInDim", "`shape`; operand dim i maps to output dim broadcast_dims[i]">;
def ExpandShape       : ShapeRule<"Expand", "`shape`, right-aligned; input dims of extent 1 expand">;
def ReshapeShape      : ShapeRule<"Reshape", "`shape`, with one -1 inferred from the element count">;
def PermuteShape      : ShapeRule<"Permute", "output dim i is input dim dims[i]">;
def SqueezeShape      : ShapeRule<"Squeeze", "the input without the listed extent-1 dims">;
def UnsqueezeShape    : ShapeRule<"Unsqueeze", "the input with an extent-1 dim inserted at `dim`">;
def SliceShape        : ShapeRule<"Slice", "dim becomes ceil((end - start) / step)">;
def PadShape          : ShapeRule<"Pad", "dim becomes before + extent + after">;
def CatShape          : ShapeRule<"Cat", "extents along dim add up; other dims must agree">;
def IndexSelectShape  : ShapeRule<"IndexSelect", "dim becomes the length of the 1-D index (1 for a 0-d index)">;
def GatherShape       : ShapeRule<"Gather", "the shape of the index, which has the input's rank">;
def ScatterShape      : ShapeRule<"Scatter", "the shape of the input">;
def CreationShape     : ShapeRule<"Creation", "`shape`">;
def SameShape         : ShapeRule<"Same", "the shape of the first operand">;
def ScalarShape       : ShapeRule<"Scalar", "rank 0 (a value, not a tensor)">;
def NormalizationShape : ShapeRule<"Normalization", "the shape of the input; parameters broadcast over `axes`">;
def ScanShape         : ShapeRule<"Scan", "the shape of the input; element i along `dim` combines the elements 0..i">;

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class Op<string mnemonic, ShapeRule shapeRule, DTypeRule dtypeRule, string group> {
  string name = mnemonic;
  string category = group;   // section of the op reference
  string summary = "";
  list<Arg> operands = [];
  list<Attr> attrs = [];
  ShapeRule shape = shapeRule;
  DTypeRule dtype = dtypeRule;
  string cuda = "";
  string cudaInt = "";
  string cpu = "";
  string cpuInt = "";
  // Function of ir/interp/Evaluators.h that evaluates the op on the CPU.
  string cpuEval = "evalElementwise";
  // True when the result can be a view of its (first) operand: alias
  // analysis may describe such an output by strides instead of a kernel.
  bit viewable = 0;
  // Decomposed into primitives by canonicalization.
  bit composite = 0;
}

class Unary<string n, string s, DTypeRule r, string cu, string c, string ci = "", string cui = "">
    : Op<n, ElementwiseShape, r, "Unary"> {
  let summary = s;
  let operands = [Arg<"x", AnyTensor>];
  let cuda = cu;
  let cpu = c;
  let cpuInt = ci;
  let cudaInt = cui;
}
class FloatUnary<string n, string s, string cu, string c> : Unary<n, s, PromoteFloat, cu, c>;

class Binary<string n, string s, DTypeRule r, string cu, string c, string ci = "", string cui = "">
    : Op<n, ElementwiseShape, r, "Binary"> {
  let summary = s;
  let operands = [Arg<"a", AnyTensor>, Arg<"b", AnyTensor>];
  let cuda = cu;
  let cpu = c;
  let cpuInt = ci;
  let cudaInt = cui;
}

// Unary ops --------------------------------------------------------------
def NegOp : Unary<"neg", "Negation.", Promote, "-$0", "-a", "ref::wrapNeg(a)", "fuserc_wrap_neg($0)">;
def AbsOp : Unary<"abs", "Absolute value.", Promote, "fabs($0)", "std::fabs(a)", "ref::wrapAbs(a)", "fuserc_wrap_abs($0)">;
def ExpOp : FloatUnary<"exp", "e raised to the power x; in f32 as 2^(x log2 e) on the multifunction unit, like CUDA's __expf and torch.compile (at most 2 + floor(1.173 abs(x)) ulp off; sigmoid and silu use it too).", "fuserc_exp($0)", "std::exp(a)">;
def Exp2Op : FloatUnary<"exp2", "2 raised to the power x.", "exp2($0)", "std::exp2(a)">;
def Expm1Op : FloatUnary<"expm1", "exp(x) - 1, accurate near zero.", "expm1($0)", "std::expm1(a)">;
def LogOp : FloatUnary<"log", "Natural logarithm.", "log($0)", "std::log(a)">;
def Log2Op : FloatUnary<"log2", "Base-2 logarithm.", "log2($0)", "std::log2(a)">;
def Log10Op : FloatUnary<"log10", "Base-10 logarithm.", "log10($0)", "std::log10(a)">;
def Log1pOp : FloatUnary<"log1p", "log(1 + x), accurate near zero.", "log1p($0)", "std::log1p(a)">;
def SqrtOp : FloatUnary<"sqrt", "Square root.", "sqrt($0)", "std::sqrt(a)">;
def RsqrtOp : FloatUnary<"rsqrt", "Reciprocal square root, 1 / sqrt(x).", "rsqrt($0)", "1.0 / std::sqrt(a)">;
def ReciprocalOp : FloatUnary<"reciprocal", "1 / x.", "(1 / $0)", "1.0 / a">;
def SinOp : FloatUnary<"sin", "Sine.", "sin($0)", "std::sin(a)">;
def CosOp : FloatUnary<"cos", "Cosine.", "cos($0)", "std::cos(a)">;
def TanOp : FloatUnary<"tan", "Tangent.", "tan($0)", "std::tan(a)">;
def TanhOp : FloatUnary<"tanh", "Hyperbolic tangent.", "tanh($0)", "std::tanh(a)">;
def SinhOp : FloatUnary<"sinh", "Hyperbolic sine.", "sinh($0)", "std::sinh(a)">;
def CoshOp : FloatUnary<"cosh", "Hyperbolic cosine.", "cosh($0)", "std::cosh(a)">;
def AsinOp : FloatUnary<"asin", "Inverse sine.", "asin($0)", "std::asin(a)">;
def AcosOp : FloatUnary<"acos", "Inverse cosine.", "acos($0)", "std::acos(a)">;
def AtanOp : FloatUnary<"atan", "Inverse tangent.", "atan($0)", "std::atan(a)">;
def SigmoidOp : FloatUnary<"sigmoid", "Logistic function 1 / (1 + exp(-x)).",
  "(1 / (1 + fuserc_exp(-$0)))", "1.0 / (1.0 + std::exp(-a))">;
def ReluOp : Unary<"relu", "max(x, 0); NaN stays NaN.", Promote,
  "($0 > 0 ? $0 : (fuserc_isnan($0) ? $0 : 0))", "ref::relu(a)", "(a > 0 ? a : 0)", "($0 > 0 ? $0 : 0)">;
def SiluOp : FloatUnary<"silu", "x * sigmoid(x); in f32 below -80 as x e^x, where 1 + e^-x overflows f32: the tail is not flushed to -0.", "fuserc_silu($0)", "a / (1.0 + std::exp(-a))">;
def GeluOp : FloatUnary<"gelu", "Gaussian error linear unit; approximate=\"tanh\" uses the tanh formula.",
  "fuserc_gelu_$approximate($0)", "ref::gelu(a, attrs.text(\"approximate\"))"> {
  let attrs = [Opt<"approximate", EnumAttr<["none", "tanh"]>, "none">];
}
def ErfOp : FloatUnary<"erf", "Error function.", "erf($0)", "std::erf(a)">;
def ErfcOp : FloatUnary<"erfc", "Complementary error function.", "erfc($0)", "std::erfc(a)">;
def FloorOp : Unary<"floor", "Largest integer not greater than x.", Promote, "floor($0)", "std::floor(a)", "a", "$0">;
def CeilOp : Unary<"ceil", "Smallest integer not less than x.", Promote, "ceil($0)", "std::ceil(a)", "a", "$0">;
def RoundOp : Unary<"round", "Round to nearest, ties to even.", Promote, "rint($0)", "std::nearbyint(a)", "a", "$0">;
def TruncOp : Unary<"trunc", "Round toward zero.", Promote, "trunc($0)", "std::trunc(a)", "a", "$0">;
def SignOp : Unary<"sign", "-1, 0 or 1 by the sign of x (NaN stays NaN).", Promote,
  "(fuserc_isnan($0) ? $0 : (($0 > 0) - ($0 < 0)))", "ref::sign(a)", "((a > 0) - (a < 0))", "(($0 > 0) - ($0 < 0))">;
def LogicalNotOp : Unary<"logical_not", "True where x is zero.", PromoteToBool,
  "($0 == 0)", "a == 0.0", "a == 0", "($0 == 0)">;
def BitwiseNotOp : Unary<"bitwise_not", "Bitwise complement (logical not for bool).", PromoteIntegral,
  "", "", "~a", "fuserc_bitwise_not($0)">;
def IsnanOp : Unary<"isnan", "True where x is NaN.", PromoteToBool, "fuserc_isnan($0)", "std::isnan(a)", "0", "false">;
def IsinfOp : Unary<"isinf", "True where x is infinite.", PromoteToBool, "isinf($0)", "std::isinf(a)", "0", "false">;
def IsfiniteOp : Unary<"isfinite", "True where x is neither infinite nor NaN.", PromoteToBool,
  "isfinite($0)", "std::isfinite(a)", "1", "true">;

// Binary ops -------------------------------------------------------------
def AddOp : Binary<"add", "a + b.", Promote, "($0 + $1)", "a + b", "ref::wrapAdd(a, b)", "fuserc_wrap_add($0, $1)">;
def SubOp : Binary<"sub", "a - b.", Promote, "($0 - $1)", "a - b", "ref::wrapSub(a, b)", "fuserc_wrap_sub($0, $1)">;
def MulOp : Binary<"mul", "a * b.", Promote, "($0 * $1)", "a * b", "ref::wrapMul(a, b)", "fuserc_wrap_mul($0, $1)">;
def DivOp : Binary<"div", "True division a / b; integer operands give f32.", PromoteFloat, "($0 / $1)", "a / b">;
def PowOp : Binary<"pow", "a raised to the power b.", Promote, "pow($0, $1)", "std::pow(a, b)",
  "ref::ipow(a, b)", "fuserc_ipow($0, $1)">;
def MaximumOp : Binary<"maximum", "Elementwise maximum; NaN propagates, -0 orders below +0.", Promote,
  "fuserc_maximum($0, $1)", "ref::maximum(a, b)", "std::max(a, b)", "max($0, $1)">;
def MinimumOp : Binary<"minimum", "Elementwise minimum; NaN propagates, -0 orders below +0.", Promote,
  "fuserc_minimum($0, $1)", "ref::minimum(a, b)", "std::min(a, b)", "min($0, $1)">;
def FmodOp : Binary<"fmod", "Remainder with the sign of a (C fmod); integer division by zero gives 0.", Promote,
  "fmod($0, $1)", "std::fmod(a, b)", "ref::ifmod(a, b)", "fuserc_ifmod($0, $1)">;
def RemainderOp : Binary<"remainder", "Remainder with the sign of b (Python %); integer division by zero gives 0.", Promote,
  "fuserc_remainder($0, $1)", "ref::remainder(a, b)", "ref::iremainder(a, b)", "fuserc_iremainder($0, $1)">;
def Atan2Op : Binary<"atan2", "Angle of the point (b, a).", PromoteFloat, "atan2($0, $1)", "std::atan2(a, b)">;
def EqOp : Binary<"eq", "a == b.", PromoteToBool, "(fuserc_ordered($0, $1) && $0 == $1)", "a == b", "a == b", "($0 == $1)">;
def NeOp : Binary<"ne", "a != b.", PromoteToBool, "($0 != $1)", "a != b", "a != b", "($0 != $1)">;
def LtOp : Binary<"lt", "a < b.", PromoteToBool, "(fuserc_ordered($0, $1) && $0 < $1)", "a < b", "a < b", "($0 < $1)">;
def LeOp : Binary<"le", "a <= b.", PromoteToBool, "(fuserc_ordered($0, $1) && $0 <= $1)", "a <= b", "a <= b", "($0 <= $1)">;
def GtOp : Binary<"gt", "a > b.", PromoteToBool, "(fuserc_ordered($0, $1) && $0 > $1)", "a > b", "a > b", "($0 > $1)">;
def GeOp : Binary<"ge", "a >= b.", PromoteToBool, "(fuserc_ordered($0, $1) && $0 >= $1)", "a >= b", "a >= b", "($0 >= $1)">;
def LogicalAndOp : Binary<"logical_and", "True where both are nonzero.", PromoteToBool,
  "($0 != 0 && $1 != 0)", "a != 0.0 && b != 0.0", "a != 0 && b != 0", "($0 != 0 && $1 != 0)">;
def LogicalOrOp : Binary<"logical_or", "True where either is nonzero.", PromoteToBool,
  "($0 != 0 || $1 != 0)", "a != 0.0 || b != 0.0", "a != 0 || b != 0", "($0 != 0 || $1 != 0)">;
def BitwiseAndOp : Binary<"bitwise_and", "Bitwise and.", PromoteIntegral, "", "", "a & b", "($0 & $1)">;
def BitwiseOrOp : Binary<"bitwise_or", "Bitwise or.", PromoteIntegral, "", "", "a | b", "($0 | $1)">;
def BitwiseXorOp : Binary<"bitwise_xor", "Bitwise exclusive or.", PromoteIntegral, "", "", "a ^ b", "($0 ^ $1)">;

// Ternary ops ------------------------------------------------------------
def WhereOp : Op<"where", ElementwiseShape, WhereRule, "Ternary"> {
  let summary = "a where the condition is true, b elsewhere.";
  let operands = [Arg<"condition", AnyTensor>, Arg<"a", AnyTensor>, Arg<"b", AnyTensor>];
  let cuda = "($0 ? $1 : $2)";
  let cudaInt = "($0 ? $1 : $2)";
  let cpu = "a != 0.0 ? b : c";
  let cpuInt = "a != 0 ? b : c";
}
def ClampOp : Op<"clamp", ElementwiseShape, Promote, "Ternary"> {
  let summary = "min(max(x, lo), hi); NaN stays NaN.";
  let operands = [Arg<"x", AnyTensor>, Arg<"lo", AnyTensor>, Arg<"hi", AnyTensor>];
  let cuda = "fuserc_minimum(fuserc_maximum($0, $1), $2)";
  let cudaInt = "min(max($0, $1), $2)";
  let cpu = "ref::minimum(ref::maximum(a, b), c)";
  let cpuInt = "std::min(std::max(a, b), c)";
}
def LerpOp : Op<"lerp", ElementwiseShape, PromoteFloat, "Ternary"> {
  let summary = "a + w * (b - a), as b - (b - a) * (1 - w) where |w| >= 0.5 (as PyTorch: exactly b at w = 1).";
  let operands = [Arg<"a", AnyTensor>, Arg<"b", AnyTensor>, Arg<"w", AnyTensor>];
  let cuda = "((($2) < 0 ? -($2) : ($2)) < 0.5 ? $0 + $2 * ($1 - $0) : $1 - ($1 - $0) * (1 - $2))";
  let cpu = "std::fabs(c) < 0.5 ? a + c * (b - a) : b - (b - a) * (1 - c)";
}

// Cast -------------------------------------------------------------------
def CastOp : Op<"cast", ElementwiseShape, FromAttr, "Conversion"> {
  let summary = "Converts to `dtype`: floats round to nearest even, float to integer truncates toward zero (saturating, NaN gives 0), nonzero to bool is true.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dtype", DTypeAttr>];
  let cuda = "$0";
  let cudaInt = "$0";
  let cpu = "a";
  let cpuInt = "a";
}

// Reductions -------------------------------------------------------------
class Reduction<string n, string s, DTypeRule r, string c> : Op<n, ReductionShape, r, "Reductions"> {
  let summary = s;
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"axes", AxisListAttr>, Opt<"keepdim", BoolAttr, "false">];
  let cpu = c;
  let cpuEval = "evalReduction";
}
def SumOp : Reduction<"sum", "Sum over `axes`; `dtype` sets the accumulate and result type.", ReduceRule,
                      "ref::reduceSum(values)"> {
  let attrs = [Req<"axes", AxisListAttr>, Opt<"keepdim", BoolAttr, "false">, Opt<"dtype", DTypeAttr>];
}
def ProdOp : Reduction<"prod", "Product over `axes`.", ReduceRule, "ref::reduceProd(values)">;
def MaxOp : Reduction<"max", "Maximum over `axes`; NaN propagates, -0 orders below +0.", ReduceKeep, "ref::reduceMax(values)">;
def MinOp : Reduction<"min", "Minimum over `axes`; NaN propagates, -0 orders below +0.", ReduceKeep, "ref::reduceMin(values)">;
def MeanOp : Reduction<"mean", "Mean over `axes`; `dtype` sets the accumulate and result type.", ReduceFloat,
                       "ref::reduceSum(values) / double(values.size())"> {
  let attrs = [Req<"axes", AxisListAttr>, Opt<"keepdim", BoolAttr, "false">, Opt<"dtype", DTypeAttr>];
}
def VarOp : Reduction<"var", "Variance over `axes` with Bessel's `correction` (1: unbiased).", ReduceFloat,
                      "ref::reduceVar(values, attrs.integer(\"correction\"))"> {
  let attrs = [Req<"axes", AxisListAttr>, Opt<"keepdim", BoolAttr, "false">, Opt<"correction", IntAttr, "1">];
}

// Scans ------------------------------------------------------------------
class Scan<string n, string s> : Op<n, ScanShape, ReduceRule, "Scans"> {
  let summary = s;
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>, Opt<"dtype", DTypeAttr>];
  let cpuEval = "evalScan";
}
def CumsumOp : Scan<"cumsum", "Inclusive prefix sum along `dim` (torch.cumsum): element i is x[0] + ... + x[i]; `dtype` sets the accumulate and result type (bool and integer inputs give i64, wrapping on overflow).">;
def CumprodOp : Scan<"cumprod", "Inclusive prefix product along `dim` (torch.cumprod): element i is x[0] * ... * x[i]; `dtype` as for cumsum.">;

// Shape ops --------------------------------------------------------------
def BroadcastInDimOp : Op<"broadcast_in_dim", BroadcastInDimShape, SameAsFirst, "Shape"> {
  let summary = "Broadcasts x to `shape`, operand dim i becoming output dim broadcast_dims[i].";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"shape", ExtentListAttr>, Req<"broadcast_dims", AxisListAttr>];
  let cpuEval = "evalIndexMap";
  let viewable = 1;
}
def ExpandOp : Op<"expand", ExpandShape, SameAsFirst, "Shape"> {
  let summary = "Broadcasts x to `shape` (right-aligned, as torch.expand; -1 keeps a dim).";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"shape", ExtentListAttr>];
  let cpuEval = "evalIndexMap";
  let viewable = 1;
}
def ReshapeOp : Op<"reshape", ReshapeShape, SameAsFirst, "Shape"> {
  let summary = "Reinterprets x, in row-major order, with `shape` (one -1 is inferred).";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"shape", ExtentListAttr>];
  let cpuEval = "evalIndexMap";
  let viewable = 1;
}
def PermuteOp : Op<"permute", PermuteShape, SameAsFirst, "Shape"> {
  let summary = "Reorders dims: output dim i is input dim dims[i].";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dims", AxisListAttr>];
  let cpuEval = "evalIndexMap";
  let viewable = 1;
}
def SqueezeOp : Op<"squeeze", SqueezeShape, SameAsFirst, "Shape"> {
  let summary = "Removes the listed dims, which must have extent 1.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dims", AxisListAttr>];
  let cpuEval = "evalIndexMap";
  let viewable = 1;
}
def UnsqueezeOp : Op<"unsqueeze", UnsqueezeShape, SameAsFirst, "Shape"> {
  let summary = "Inserts a dim of extent 1 at position `dim` of the result.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>];
  let cpuEval = "evalIndexMap";
  let viewable = 1;
}
def SliceOp : Op<"slice", SliceShape, SameAsFirst, "Shape"> {
  let summary = "Elements start, start+step, ... below end along `dim` (start and end clamp to the extent).";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>, Opt<"start", ExtentAttr, "0">, Opt<"end", ExtentAttr>,
               Opt<"step", IntAttr, "1">];
  let cpuEval = "evalIndexMap";
  let viewable = 1;
}
def PadOp : Op<"pad", PadShape, SameAsFirst, "Shape"> {
  let summary = "Pads `dim` with `before` and `after` elements of `value`.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>, Req<"before", ExtentAttr>, Req<"after", ExtentAttr>,
               Opt<"value", NumberAttr, "0">];
  let cpuEval = "evalIndexMap";
}
def CatOp : Op<"cat", CatShape, Promote, "Shape"> {
  let summary = "Concatenates the operands along `dim`.";
  let operands = [Arg<"tensors", TensorList>];
  let attrs = [Req<"dim", AxisAttr>];
  let cpuEval = "evalCat";
}

// Indexing ops -----------------------------------------------------------
def IndexSelectOp : Op<"index_select", IndexSelectShape, SameAsFirst, "Indexing"> {
  let summary = "Selects entries of x along `dim` at the positions in the 1-D index; a 0-d index selects one, keeping the dim (extent 1), as torch.index_select.";
  let operands = [Arg<"x", AnyTensor>, Arg<"index", IndexTensor>];
  let attrs = [Req<"dim", AxisAttr>];
  let cpuEval = "evalIndexSelect";
}
def GatherOp : Op<"gather", GatherShape, SameAsFirst, "Indexing"> {
  let summary = "Take-along-axis: out[i][j] = x[index[i][j]][j] for dim=0, and so on.";
  let operands = [Arg<"x", AnyTensor>, Arg<"index", IndexTensor>];
  let attrs = [Req<"dim", AxisAttr>];
  let cpuEval = "evalGather";
}
def ScatterOp : Op<"scatter", ScatterShape, SameAsFirst, "Indexing"> {
  let summary = "A copy of x with src (a tensor shaped like the index, or a scalar) written at the index positions along `dim`; with duplicate indices the last write in row-major index order wins. The index may not exceed x in the other dims (checked at launch). Up to 8 static positions along `dim` are searched by each element of any kernel; more run as a fill and an update pass, linear in x's elements plus the index's positions (docs/schedulers.md, \"Two-pass scatters\").";
  let operands = [Arg<"x", AnyTensor>, Arg<"index", IndexTensor>, Arg<"src", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>];
  let cpuEval = "evalScatter";
}

// Creation ops -----------------------------------------------------------
def FullOp : Op<"full", CreationShape, FromAttr, "Creation"> {
  let summary = "A tensor of `shape` filled with `value`.";
  let attrs = [Req<"shape", ExtentListAttr>, Req<"value", NumberAttr>, Req<"dtype", DTypeAttr>];
  let cpuEval = "evalFull";
}
def IotaOp : Op<"iota", CreationShape, FromAttr, "Creation"> {
  let summary = "A tensor of `shape` whose entries are their index along `dim`.";
  let attrs = [Req<"shape", ExtentListAttr>, Req<"dim", AxisAttr>, Opt<"dtype", DTypeAttr, "i64">];
  let cpuEval = "evalIota";
}
def SizeOp : Op<"size", ScalarShape, FromAttr, "Creation"> {
  let summary = "The extent of x's dim `dim` (x.size(dim) in PyTorch) as a rank-0 value of `dtype`; x's elements are not read (canonicalization makes it an `extent`).";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>, Opt<"dtype", DTypeAttr, "i64">];
  let cpuEval = "evalSize";
}
def ExtentOp : Op<"extent", ScalarShape, FromAttr, "Creation"> {
  let summary = "The extent expression `value` (`H*W`, `N - 1`) evaluated at launch, as a rank-0 value of `dtype`; a bare symbol used as an operand (`div(s, N)`) is `extent(value=N)`.";
  let attrs = [Req<"value", ExtentAttr>, Opt<"dtype", DTypeAttr, "i64">];
  let cpuEval = "evalExtent";
}
def RandLikeOp : Op<"rand_like", SameShape, SameFloat, "Creation"> {
  let summary = "Uniform random numbers in [0, 1) shaped like x, from Philox4x32-10 keyed by the seed and offset scalars; element i (row-major) is word i % 4 of the block at counter (i / 4, offset).";
  let operands = [Arg<"x", AnyTensor>, Arg<"seed", ScalarInput>, Arg<"offset", ScalarInput>];
  let cpuEval = "evalRandLike";
}

// Composites -------------------------------------------------------------
def SoftmaxOp : Op<"softmax", SameShape, SameFloat, "Composites"> {
  let summary = "exp(x - max) / sum(exp(x - max)) along `dim`.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>];
  let cpuEval = "evalSoftmax";
  let composite = 1;
}
def LogSoftmaxOp : Op<"log_softmax", SameShape, SameFloat, "Composites"> {
  let summary = "x - max - log(sum(exp(x - max))) along `dim`.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>];
  let cpuEval = "evalLogSoftmax";
  let composite = 1;
}
def LayerNormOp : Op<"layer_norm", NormalizationShape, SameFloat, "Composites"> {
  let summary = "(x - mean) / sqrt(biased var + eps) * w + b over `axes`; w and b are shaped like those dims.";
  let operands = [Arg<"x", AnyTensor>, Arg<"w", AnyTensor>, Arg<"b", AnyTensor>];
  let attrs = [Req<"axes", AxisListAttr>, Opt<"eps", NumberAttr, "1e-05">];
  let cpuEval = "evalLayerNorm";
  let composite = 1;
}
def RmsNormOp : Op<"rms_norm", NormalizationShape, SameFloat, "Composites"> {
  let summary = "x / sqrt(mean(x * x) + eps) * w over `axes`; w is shaped like those dims.";
  let operands = [Arg<"x", AnyTensor>, Arg<"w", AnyTensor>];
  let attrs = [Req<"axes", AxisListAttr>, Opt<"eps", NumberAttr, "1e-06">];
  let cpuEval = "evalRmsNorm";
  let composite = 1;
}
def SoftplusOp : Op<"softplus", SameShape, SameFloat, "Composites"> {
  let summary = "x where beta * x > threshold, else log1p(exp(beta * x)) / beta (as torch.nn.functional.softplus; beta is nonzero and finite).";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Opt<"beta", NumberAttr, "1">, Opt<"threshold", NumberAttr, "20">];
  let cpuEval = "evalSoftplus";
  let composite = 1;
}
def LogSumExpOp : Op<"logsumexp", ReductionShape, PromoteFloat, "Composites"> {
  let summary = "log(sum(exp(x - m))) + m over `axes`, m the max with infinities replaced by 0 (as torch.logsumexp: a lane of -inf gives -inf); integer and bool inputs give f32.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"axes", AxisListAttr>, Opt<"keepdim", BoolAttr, "false">];
  let cpuEval = "evalLogSumExp";
  let composite = 1;
}
def ArgMaxOp : Op<"argmax", ReductionShape, IndexRule, "Composites"> {
  let summary = "The first position along `dim` holding the largest value, a NaN counting as largest (as torch.argmax); an empty dim has none (an error).";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>, Opt<"keepdim", BoolAttr, "false">];
  let cpuEval = "evalArgExtreme";
  let composite = 1;
}
def ArgMinOp : Op<"argmin", ReductionShape, IndexRule, "Composites"> {
  let summary = "The first position along `dim` holding the smallest value, a NaN counting as smallest (as torch.argmin); an empty dim has none (an error).";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"dim", AxisAttr>, Opt<"keepdim", BoolAttr, "false">];
  let cpuEval = "evalArgExtreme";
  let composite = 1;
}
def StdOp : Op<"std", ReductionShape, ReduceFloat, "Composites"> {
  let summary = "Standard deviation over `axes`: sqrt(var(x, correction)), as torch.std.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Req<"axes", AxisListAttr>, Opt<"keepdim", BoolAttr, "false">, Opt<"correction", IntAttr, "1">];
  let cpu = "std::sqrt(ref::reduceVar(values, attrs.integer(\"correction\")))";
  let cpuEval = "evalReduction";
  let composite = 1;
}
