"""NAME.manifest.json (docs/manifest.md), read and checked once: the single
source of truth for a compiled library's fusions — names, C prefixes,
dtypes, symbolic shapes and strides, layouts, output kinds and the
workspace formula. The segmentation and kernel entries are for people and
are not read."""
import json

from ._errors import ManifestError
from ._extent import Extent

FORMAT = "fuserc-manifest"
VERSIONS = (2, 3)  # the manifest versions this package reads
DTYPES = ("bool", "i32", "i64", "f16", "bf16", "f32", "f64")
SCALAR_C_TYPES = ("float", "double", "int32_t", "int64_t")
OUTPUT_KINDS = ("new_buffer", "view", "in_place")


def _get(obj, key, kind, where):
    if not isinstance(obj, dict) or key not in obj:
        raise ManifestError("%s: missing key '%s'" % (where, key))
    value = obj[key]
    if kind is not None and not isinstance(value, kind):
        raise ManifestError("%s: '%s' is %r, expected %s" % (where, key, value,
                                                           getattr(kind, "__name__", kind)))
    return value


def _choice(obj, key, choices, where):
    value = _get(obj, key, str, where)
    if value not in choices:
        raise ManifestError("%s: '%s' is '%s', expected one of %s"
                            % (where, key, value, ", ".join(choices)))
    return value


def _extents(obj, key, where, rank=None):
    values = _get(obj, key, list, where)
    if rank is not None and len(values) != rank:
        raise ManifestError("%s: '%s' has %d entries for rank %d" % (where, key, len(values), rank))
    try:
        return tuple(Extent(v) for v in values)
    except ManifestError as e:
        raise ManifestError("%s: %s" % (where, e)) from None


class Input:
    """A fusion input: `kind` "tensor" or "scalar"; tensors have `shape`,
    `strides` (Extents), `layout` and `strided`; scalars a `c_type`."""

    def __init__(self, obj, where):
        self.name = _get(obj, "name", str, where)
        where = "%s input '%s'" % (where, self.name)
        self.kind = _choice(obj, "kind", ("tensor", "scalar"), where)
        self.dtype = _choice(obj, "dtype", DTYPES, where)
        self.is_tensor = self.kind == "tensor"
        if self.is_tensor:
            self.shape = _extents(obj, "shape", where)
            self.layout = tuple(_get(obj, "layout", list, where))
            self.strided = _get(obj, "strided", bool, where)
            self.strides = _extents(obj, "strides", where, len(self.shape))
        else:
            self.c_type = _choice(obj, "c_type", SCALAR_C_TYPES, where)

    @property
    def rank(self):
        return len(self.shape)


class View:
    def __init__(self, obj, rank, where):
        self.base = _get(obj, "base", str, where)
        self.offset = _extents({"offset": [_get(obj, "offset", str, where)]}, "offset", where)[0]
        self.strides = _extents(obj, "strides", where, rank)


class Output:
    """A fusion output: `kind` "new_buffer", "view" or "in_place"; `aliases`
    (in place) and `view` (a View: base, offset, strides) as the manifest says."""

    def __init__(self, obj, where):
        self.name = _get(obj, "name", str, where)
        where = "%s output '%s'" % (where, self.name)
        self.dtype = _choice(obj, "dtype", DTYPES, where)
        self.shape = _extents(obj, "shape", where)
        self.layout = tuple(_get(obj, "layout", list, where))
        self.kind = _choice(obj, "kind", OUTPUT_KINDS, where)
        self.strides = _extents(obj, "strides", where, len(self.shape))
        self.aliases = _get(obj, "aliases", (str, type(None)), where)
        view = _get(obj, "view", (dict, type(None)), where)
        self.view = View(view, len(self.shape), where + " view") if view is not None else None
        if (self.kind == "in_place") != (self.aliases is not None):
            raise ManifestError("%s: kind '%s' with aliases %r" % (where, self.kind, self.aliases))
        if (self.kind == "view") != (self.view is not None):
            raise ManifestError("%s: kind '%s' with view %r" % (where, self.kind, view))

    @property
    def rank(self):
        return len(self.shape)


class SymbolSource:
    """Where a symbol gets its value: dim `dim` of tensor input `input` is
    `coefficient * symbol + rest` (`rest` an Extent of symbols bound before
    it, or None when the dim is the symbol itself)."""

    def __init__(self, name, input, dim, coefficient=1, rest=None):
        self.name, self.input, self.dim = name, input, dim
        self.coefficient, self.rest = coefficient, rest

    @classmethod
    def read(cls, obj, where):
        name = _get(obj, "name", str, where)
        where = "%s symbol '%s'" % (where, name)
        rest = _get(obj, "rest", (str, type(None)), where)
        coefficient = _get(obj, "coefficient", int, where)
        if coefficient < 1:
            raise ManifestError("%s: coefficient %d is not positive" % (where, coefficient))
        return cls(name, _get(obj, "input", str, where), _get(obj, "dim", int, where), coefficient,
                   _extents({"rest": [rest]}, "rest", where)[0] if rest is not None else None)


def _direct_symbols(inputs):
    """The binding of a manifest without `symbols`: each symbol from the
    first dim that is exactly it."""
    out = {}
    for i in inputs:
        if i.is_tensor:
            for d, extent in enumerate(i.shape):
                if extent.text in extent.symbols and extent.text not in out:
                    out[extent.text] = SymbolSource(extent.text, i.name, d)
    return tuple(out.values())


class FusionSpec:
    """One fusion: `inputs` and `outputs` in declaration order, `c_prefix`
    of its C functions, `workspace_bytes` (an Extent)."""

    def __init__(self, obj, where):
        self.name = _get(obj, "name", str, where)
        where = "%s: fusion '%s'" % (where, self.name)
        self.c_prefix = _get(obj, "c_prefix", str, where)
        self.inputs = tuple(Input(i, where) for i in _get(obj, "inputs", list, where))
        self.outputs = tuple(Output(o, where) for o in _get(obj, "outputs", list, where))
        self.workspace_bytes = _extents({"w": [_get(obj, "workspace_bytes", str, where)]}, "w",
                                        where)[0]
        names = {i.name: i for i in self.inputs}
        for out in self.outputs:
            base = out.aliases or (out.view.base if out.view else None)
            if base is not None and not (base in names and names[base].is_tensor):
                raise ManifestError("%s output '%s': '%s' is not a tensor input"
                                    % (where, out.name, base))
        self.input_by_name = names
        if "symbols" in obj:
            self.symbols = tuple(SymbolSource.read(x, where)
                                 for x in _get(obj, "symbols", list, where))
        else:
            self.symbols = _direct_symbols(self.inputs)
        for x in self.symbols:
            i = names.get(x.input)
            if i is None or not i.is_tensor or not 0 <= x.dim < i.rank:
                raise ManifestError("%s symbol '%s': dim %d of '%s' is not a tensor input's"
                                    % (where, x.name, x.dim, x.input))

    @property
    def tensor_inputs(self):
        return tuple(i for i in self.inputs if i.is_tensor)


class Manifest:
    """A whole manifest: `name` (the library's base name), `fusions` in order
    and `fusion(name)`, plus the toolchain that wrote it."""

    def __init__(self, obj, path="<manifest>"):
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise ManifestError("%s: not a fuserc manifest (its 'format' is not '%s')"
                                % (path, FORMAT))
        version = obj.get("version")
        if version not in VERSIONS:
            raise ManifestError("%s: manifest version %r is not one this package reads (%s); "
                                "use the fuserc package that matches the fuserc that wrote it"
                                % (path, version, ", ".join(map(str, VERSIONS))))
        self.path = path
        self.version = version
        self.name = _get(obj, "name", str, path)
        self.fuserc_version = _get(obj, "fuserc_version", str, path)
        self.archs = tuple(_get(obj, "archs", list, path))
        self.ptx_arch = _get(obj, "ptx_arch", (str, type(None)), path)
        self.fusions = tuple(FusionSpec(f, path) for f in _get(obj, "fusions", list, path))
        self._by_name = {f.name: f for f in self.fusions}

    def fusion(self, name):
        if name not in self._by_name:
            raise KeyError("%s has no fusion '%s' (fusions: %s)"
                           % (self.path, name, ", ".join(self._by_name)))
        return self._by_name[name]


def read_manifest(path):
    """The Manifest in file `path`; ManifestError when it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
    except OSError as e:
        raise ManifestError("cannot read %s: %s" % (path, e.strerror)) from None
    except ValueError as e:
        raise ManifestError("%s: not JSON: %s" % (path, e)) from None
    return Manifest(obj, path)
