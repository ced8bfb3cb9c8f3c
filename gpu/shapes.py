"""Which symbol bindings the GPU tests run each fusion at, and how their
integer inputs are drawn.

Every case runs at an extent of 1 everywhere, at small primes (7, 13, 101),
at sizes that are not multiples of 8 (or of a vector width), and at a medium
size of 10^5 to 10^6 elements, small enough for the CPU reference
interpreter. Keys are `FILE_STEM` or `FILE_STEM.FUSION` (the latter wins);
fusions with no entry get GENERIC_BINDINGS (every symbol the same extent).
"""

GENERIC_EXTENTS = [1, 7, 13, 101]

# Rows reductions and normalizations: one row, short rows, long rows, rows
# longer than one block's worth, many rows.
_ROWS = [
    {"M": 1, "N": 1},
    {"M": 7, "N": 13},
    {"M": 13, "N": 101},
    {"M": 101, "N": 1000},
    {"M": 3, "N": 65537},
    {"M": 64, "N": 8193},
    {"M": 33, "N": 4099},
    # Multiples of the vector width: the contiguous variants' vectors, from
    # 8 lanes per row to the streaming variant.
    {"M": 37, "N": 8},
    {"M": 19, "N": 200},
    {"M": 9, "N": 1000},
    {"M": 5, "N": 8192},
    {"M": 3, "N": 32768},
    {"M": 2, "N": 262144},
]

# Column reductions beside rows (column_partials.fus): past the capped grid,
# past the register variants, and rows of no elements.
_COLUMN_PARTIALS = _ROWS + [{"M": 70001, "N": 8}, {"M": 5000, "N": 64}, {"M": 3000, "N": 1000},
                            {"M": 600, "N": 20000}, {"M": 5, "N": 0}]

BINDINGS = {
    "bias_relu_nhwc": [
        {"N": 1, "C": 1, "H": 1, "W": 1},
        {"N": 2, "C": 7, "H": 13, "W": 5},
        {"N": 3, "C": 101, "H": 7, "W": 9},
        {"N": 1, "C": 1024, "H": 5, "W": 3},
        {"N": 4, "C": 67, "H": 25, "W": 25},
    ],
    "gelu_bwd_bias_grad": [
        {"B": 1, "S": 1, "H": 1},
        {"B": 2, "S": 7, "H": 13},
        {"B": 3, "S": 5, "H": 101},
        {"B": 1, "S": 1, "H": 4099},
        {"B": 4, "S": 33, "H": 1031},
    ],
    "softmax": _ROWS,
    "nonfinite_literals.masked_softmax": _ROWS,
    "row_variants": _ROWS,
    # Headed rows run from 250 to 2041 positions (bf16; f32 from 254).
    "headed_rows": _ROWS + [{"M": 4097, "N": 300}, {"M": 300, "N": 1500}, {"M": 64, "N": 2041},
                            {"M": 64, "N": 2042}, {"M": 1000, "N": 250}, {"M": 7, "N": 777},
                            {"M": 33, "N": 513}],
    "headed_rows.two_reduced_dims": [{"A": 1, "B": 1, "C": 1}, {"A": 7, "B": 3, "C": 5},
                                     {"A": 33, "B": 7, "C": 13}, {"A": 5, "B": 16, "C": 63},
                                     {"A": 3, "B": 3, "C": 227}, {"A": 4, "B": 7, "C": 99}],
    "recompute": _ROWS,
    # Rows past the capped grid (264 blocks of up to 256 rows), row slots
    # joined in shared memory, rows past the register variants (general).
    "column_partials": _COLUMN_PARTIALS + [{"M": 0, "N": 5}],
    # A max or min over no rows has no value (the oracle refuses it, as torch does).
    "column_partials.row_and_column": _COLUMN_PARTIALS,
    "column_partials.softmax_column_min": _COLUMN_PARTIALS,
    "reduction_broadcasts.sum_expanded": _ROWS,
    "reduction_broadcasts.max_broadcast_in_dim": _ROWS,
    "row_variants.permuted_read": [{"N": 1}, {"N": 7}, {"N": 64}, {"N": 1000}, {"N": 2048}],
    "row_variants.two_reduced_dims": [{"A": 1, "B": 1, "C": 1}, {"A": 7, "B": 3, "C": 5},
                                      {"A": 5, "B": 16, "C": 64}, {"A": 3, "B": 7, "C": 1001},
                                      {"A": 2, "B": 64, "C": 1024}],
    "composites_issue27": _ROWS,
    "scans": _ROWS,
    "in_place_ordered": _ROWS,
    "layernorm": _ROWS,
    "rmsnorm": _ROWS,
    "layernorm.layer_norm_composite": _ROWS,
    "layernorm.rms_norm_residual": _ROWS,
    "rope": [
        {"B": 1, "H": 1, "S": 1},
        {"B": 1, "H": 2, "S": 7},
        {"B": 2, "H": 3, "S": 13},
        {"B": 2, "H": 4, "S": 101},
    ],
    "xent_bwd": [
        {"M": 1, "V": 1},
        {"M": 7, "V": 13},
        {"M": 13, "V": 101},
        {"M": 64, "V": 1000},
        {"M": 33, "V": 50257},
    ],
    "transpose_add": [
        {"M": 1, "N": 1},
        {"M": 64, "N": 8},
        {"M": 200, "N": 1000},
        {"M": 7, "N": 13},
        {"M": 101, "N": 13},
        {"M": 257, "N": 1025},
        {"M": 1000, "N": 1001},
    ],
    "sum_inner": [
        {"M": 1, "N": 1},
        {"M": 7, "N": 13},
        {"M": 13, "N": 101},
        {"M": 1001, "N": 1000},
        {"M": 3, "N": 100003},
        {"M": 100003, "N": 3},
        {"M": 1000, "N": 1024},
        {"M": 3, "N": 65536},
        {"M": 4096, "N": 4},
    ],
    "example": [{"N": 1}, {"N": 7}, {"N": 1001}, {"N": 100003}],
    "swiglu": _ROWS,
    "indexing.scatter_two_per_row": [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 101, "N": 1000}],
    # K = N: gather's index has x's shape; index_select picks K columns.
    "indexing.gather_select_pad": [{"M": 1, "N": 1, "K": 1}, {"M": 7, "N": 13, "K": 13},
                                   {"M": 64, "N": 1001, "K": 1001}],
    "indexing.random_mask": [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 101, "N": 1000}],
    "sgd_update": [{"R": 1, "C": 1}, {"R": 7, "C": 13}, {"R": 64, "C": 8192}, {"R": 3, "C": 65537}],
    # examples/cookbook/ (docs/cookbook.md); rope and swiglu share the bench
    # cases' stems and bindings.
    "causal_softmax": [{"B": 1, "H": 1, "S": 1}, {"B": 2, "H": 3, "S": 7},
                       {"B": 1, "H": 2, "S": 101}, {"B": 1, "H": 1, "S": 1000}],
    "padding_masked_softmax": [{"B": 1, "H": 1, "S": 1}, {"B": 3, "H": 2, "S": 7},
                               {"B": 2, "H": 2, "S": 101}, {"B": 2, "H": 1, "S": 1000}],
    "cross_entropy": [{"M": 1, "V": 1}, {"M": 7, "V": 13}, {"M": 13, "V": 101},
                      {"M": 33, "V": 4099}, {"M": 3, "V": 50257}],
    "residual_rms_norm": _ROWS,
    "swiglu.swiglu_fused_projection": [{"M": 1}, {"M": 7}, {"M": 33}],
    "group_norm": [{"N": 1, "H": 1, "W": 1}, {"N": 2, "H": 7, "W": 5}, {"N": 3, "H": 13, "W": 11},
                   {"N": 1, "H": 32, "W": 32}],
    "instance_norm": [{"N": 1, "C": 1, "H": 1, "W": 1}, {"N": 2, "C": 3, "H": 7, "W": 5},
                      {"N": 3, "C": 13, "H": 13, "W": 11}, {"N": 1, "C": 4, "H": 64, "W": 64}],
    # C / 32 must be whole: 1, 3 and 8 channels a group.
    "group_norm_symbolic": [{"N": 1, "C": 32, "H": 1, "W": 1}, {"N": 2, "C": 96, "H": 7, "W": 5},
                            {"N": 1, "C": 256, "H": 13, "W": 11}],
    # Head dims 2*D of 2, 14, 128 (D = 1, 7, 64).
    "rope_symbolic": [{"B": 1, "H": 1, "S": 1, "D": 1}, {"B": 2, "H": 3, "S": 13, "D": 7},
                      {"B": 1, "H": 4, "S": 101, "D": 64}],
    # Sizes as values: one element (n - 1 = 0 divides by 0, as PyTorch's
    # var), odd sizes, a plane of 4096; rows as _ROWS; N*N past 2^32.
    "sizes_as_values.instance_stats": [{"N": 1, "C": 1, "H": 1, "W": 1},
                                       {"N": 2, "C": 7, "H": 13, "W": 5},
                                       {"N": 3, "C": 33, "H": 64, "W": 64}],
    "sizes_as_values.scaled_rows": [{"M": 1, "K": 1}, {"M": 7, "K": 13}, {"M": 101, "K": 1000},
                                    {"M": 3, "K": 65537}, {"M": 4099, "K": 33}],
    "sizes_as_values.extent_values": [{"N": 1}, {"N": 101}, {"N": 46341}, {"N": 65537}],
}

# Column (outer / middle) reductions: R (rows reduced) and K (columns) of 1,
# 7, 33, 1000; tall-thin (64 splits) and short-wide (one split, more than
# 264 tiles); column counts that allow 4-wide loads and ones that do not.
_OUTER = [
    {"M": 1, "N": 1},
    {"M": 7, "N": 13},
    {"M": 33, "N": 1000},
    {"M": 1000, "N": 33},
    {"M": 1000, "N": 7},
    {"M": 1, "N": 1000},
    {"M": 1000, "N": 1},
    {"M": 100003, "N": 3},
    {"M": 7, "N": 100003},
    {"M": 13, "N": 70000},
    {"M": 1001, "N": 1000},
    # Few columns over many rows: lanes of a warp on other rows, up to 256
    # splits merged by the whole last block.
    {"M": 1000003, "N": 1},
    {"M": 300007, "N": 4},
    {"M": 65537, "N": 20},
    {"M": 200003, "N": 64},
    # K below a vector and dividing it: vectors of whole rows (tile_pack),
    # rows past the last whole vector added by the folding thread.
    {"M": 100001, "N": 2},
    {"M": 4101, "N": 1},
]
BINDINGS.update({
    # R = 0 reduces to the identity; K = 0 launches nothing.
    "sum_outer": _OUTER + [{"M": 0, "N": 5}, {"M": 5, "N": 0}],
    "outer_reductions": _OUTER,
    "outer_reductions.middle_mean_epilogue": [
        {"A": 1, "R": 1, "K": 1}, {"A": 3, "R": 7, "K": 13}, {"A": 5, "R": 33, "K": 64},
        {"A": 2, "R": 1000, "K": 36}, {"A": 7, "R": 3, "K": 1000},
        {"A": 3, "R": 100000, "K": 1}, {"A": 4, "R": 6002, "K": 2},
        {"A": 8, "R": 262144, "K": 1}],
    "outer_reductions.channels_last_stats": [
        {"N": 1, "C": 1, "H": 1, "W": 1}, {"N": 2, "C": 3, "H": 5, "W": 7},
        {"N": 4, "C": 64, "H": 9, "W": 9}, {"N": 2, "C": 13, "H": 33, "W": 17},
        {"N": 3, "C": 2, "H": 33, "W": 17}],
    "outer_reductions.nchw_stats": [
        {"N": 1, "C": 1, "H": 1, "W": 1}, {"N": 2, "C": 3, "H": 5, "W": 7},
        {"N": 1, "C": 4, "H": 1, "W": 1}, {"N": 8, "C": 64, "H": 9, "W": 9},
        {"N": 3, "C": 13, "H": 33, "W": 17}, {"N": 32, "C": 2, "H": 64, "W": 64}],
    "outer_reductions.strided_middle": [
        {"R": 1, "K": 1, "J": 1}, {"R": 7, "K": 5, "J": 13}, {"R": 33, "K": 4, "J": 64}],
})
# Transposes: tiles of 32 cut at 1, 7, 13, 33 and 101; many tiles; a batch.
# Multiples of 8 (and not of 64: partial tiles of whole vectors) take the
# vector variant; the others the scalar one.
_TRANSPOSE_MN = [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 33, "N": 101}, {"M": 101, "N": 1},
                 {"M": 1000, "N": 1001}, {"M": 4096, "N": 33}, {"M": 8, "N": 8},
                 {"M": 72, "N": 136}, {"M": 1000, "N": 1024}]
BINDINGS.update({
    "transpose": _TRANSPOSE_MN,
    "transpose.batched_f16": [{"B": 1, "S": 1, "D": 1}, {"B": 3, "S": 7, "D": 13},
                              {"B": 2, "S": 33, "D": 64}, {"B": 5, "S": 512, "D": 768},
                              {"B": 1, "S": 1000, "D": 1}, {"B": 3, "S": 72, "D": 40},
                              {"B": 2, "S": 64, "D": 136}],
    "transpose.permuted_outputs_3d": [{"B": 1, "S": 1, "D": 1}, {"B": 3, "S": 7, "D": 13},
                                      {"B": 2, "S": 33, "D": 64}, {"B": 5, "S": 512, "D": 768},
                                      {"B": 1, "S": 1000, "D": 1}, {"B": 3, "S": 72, "D": 40},
                                      {"B": 2, "S": 64, "D": 136}],
    "transpose.nhwc_meets_nchw": [{"N": 1, "C": 1, "H": 1, "W": 1}, {"N": 2, "C": 3, "H": 5, "W": 7},
                                  {"N": 4, "C": 64, "H": 9, "W": 9},
                                  {"N": 2, "C": 130, "H": 13, "W": 17},
                                  {"N": 2, "C": 72, "H": 4, "W": 10}],
})
# resize.fus: extents that are multiples of the vector width (the rvec
# variants) next to ones that are not (gen at launch); outer extents of 1.
_ROPE_BHS = [{"B": 1, "H": 1, "S": 1}, {"B": 1, "H": 1, "S": 7}, {"B": 2, "H": 3, "S": 13},
             {"B": 1, "H": 2, "S": 101}]
BINDINGS.update({
    # straddle.fus: odd inner extents (svec), tails of 1 to V - 1 elements,
    # multiples of the vector (vec, rvec), and about 10^6 elements.
    "straddle": [{"M": 1, "N": 1}, {"M": 2, "N": 7}, {"M": 7, "N": 13}, {"M": 3, "N": 4093},
                 {"M": 5, "N": 50257}, {"M": 64, "N": 1000}, {"M": 19, "N": 50257},
                 {"M": 1000, "N": 1001}],
    "straddle.rgb_normalize": [{"M": 1}, {"M": 2}, {"M": 5}, {"M": 8}, {"M": 1001},
                               {"M": 262147}],
    "straddle.carry_rank3": [{"A": 1, "B": 1, "C": 1}, {"A": 2, "B": 3, "C": 3},
                             {"A": 3, "B": 5, "C": 1}, {"A": 7, "B": 13, "C": 5},
                             {"A": 4, "B": 8, "C": 16}, {"A": 33, "B": 101, "C": 129}],
    "resize.rope_f32": _ROPE_BHS,
    "resize.rope_f16_scaled": _ROPE_BHS,
    "resize.rotate_512": [{"M": 1, "N": 1024}, {"M": 7, "N": 517}, {"M": 3, "N": 1000},
                          {"M": 2, "N": 513}, {"M": 13, "N": 2048}],
    "resize.pad_unaligned": [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 5, "N": 64},
                             {"M": 3, "N": 1000}],
    "resize.pad_aligned": [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 5, "N": 64},
                           {"M": 3, "N": 1000}, {"M": 2, "N": 8}],
    "resize.cat_unaligned": [{"M": 1, "N": 1}, {"M": 7, "N": 8}, {"M": 3, "N": 1000}],
    "resize.cat_three_bf16": [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 5, "N": 64},
                              {"M": 3, "N": 1000}],
    "resize.slice_outer_step": [{"R": 2, "N": 8}, {"R": 7, "N": 13}, {"R": 13, "N": 64},
                                {"R": 101, "N": 1000}],
    "resize.coordinates": [{"B": 1, "A": 1, "C": 1}, {"B": 3, "A": 7, "C": 13},
                           {"B": 2, "A": 5, "C": 64}, {"B": 4, "A": 3, "C": 1000}],
    "resize.mixed_widths": [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 5, "N": 64},
                            {"M": 3, "N": 1002}],
    "resize.nhwc_pad_channels": [{"N": 1, "C": 1, "H": 1, "W": 1}, {"N": 2, "C": 3, "H": 5, "W": 7},
                                 {"N": 2, "C": 64, "H": 5, "W": 7}, {"N": 1, "C": 8, "H": 9, "W": 9}],
    "resize.views_around_slice": [{"M": 1, "N": 5}, {"M": 7, "N": 13}, {"M": 3, "N": 68},
                                  {"M": 5, "N": 1004}],
})
BINDINGS["gelu_bwd_bias_grad"] = BINDINGS["gelu_bwd_bias_grad"] + [
    {"B": 2, "S": 65, "H": 1024},
    {"B": 8, "S": 512, "H": 64},
]

# long_rows.fus: row lengths on both sides of 16384 (the largest held in
# registers, then streaming) and 32768 elements, up to 262151; odd
# lengths; one row and a few. On sm_90 rows past what m512 caches run the
# cluster variant: 131071 and 262144 bf16 over clusters of 4 and 8 CTAs
# caching the whole row, 1048583 over 8 CTAs caching each slice in part;
# more rows (40) than a wave of clusters holds at 262144. Up to 132 rows
# above 16384 run the grid variant where the device holds its blocks at
# once (S slices of at least 4096 per row); 133 and 140 rows keep the
# cached and cluster variants.
_LONG_ROWS = [
    {"M": 2, "N": 16384},
    {"M": 1, "N": 16385},
    {"M": 3, "N": 24577},
    {"M": 4, "N": 32768},
    {"M": 3, "N": 32769},
    {"M": 2, "N": 50257},
    {"M": 1, "N": 65536},
    {"M": 5, "N": 65536},
    {"M": 2, "N": 131071},
    {"M": 1, "N": 262144},
    {"M": 3, "N": 262144},
    {"M": 2, "N": 262151},
    {"M": 40, "N": 262144},
    {"M": 2, "N": 1048583},
    {"M": 133, "N": 131071},
    {"M": 140, "N": 262151},
]
BINDINGS["long_rows"] = _LONG_ROWS
# static_rows.fus: rows of a static length; one row, a few, many, and a
# transposed layout where the case allows (general variants).
BINDINGS["static_rows"] = [{"M": 1}, {"M": 3}, {"M": 7}, {"M": 101}]
# small_reductions.fus: rows as the row cases; N a multiple of 8 takes the
# vectorized (rvec) kernels, other N the general one.
BINDINGS["small_reductions"] = _ROWS
BINDINGS["long_rows.xent_odd"] = [{"M": 1, "V": 50257}, {"M": 4, "V": 50257},
                                  {"M": 3, "V": 32769}, {"M": 2, "V": 131071},
                                  {"M": 2, "V": 65536}]

# Integer inputs that index something: [low, high) as expressions of the
# binding. Other integer inputs are drawn from [-50, 50), bools at random.
INT_RANGES = {
    "xent_bwd": {"labels": ("0", "V")},
    "long_rows.xent_odd": {"labels": ("0", "V")},
    "indexing.scatter_two_per_row": {"idx": ("0", "N")},
    "indexing.gather_select_pad": {"g": ("0", "N"), "s": ("0", "N")},
    "indexing.random_mask": {"seed": ("0", "1000"), "offset": ("0", "1000")},
    "composites_issue27.index_select_0d": {"i": ("0", "N")},
    "scans.gathered_scan": {"i": ("0", "N")},
    "scans.gather_after_scan": {"i": ("0", "M")},
    "padding_masked_softmax": {"lengths": ("0", "S + 1")},
    "cross_entropy": {"labels": ("0", "V")},
}
BINDINGS["reduction_broadcasts.sum_dtype"] = [{"M": 1}, {"M": 3}, {"M": 129}, {"M": 4096}]
# input_copies.fus: the generic extents, and a medium transpose.
BINDINGS["input_copies"] = [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 101, "N": 33},
                            {"M": 1000, "N": 517}]
BINDINGS["input_copies.permuted_3d_input"] = [{"A": 1, "M": 1, "N": 1},
                                              {"A": 3, "M": 7, "N": 13},
                                              {"A": 5, "M": 101, "N": 64}]
# fuzz_found.fus: the sizes where the fuzzer saw each case fail, and around.
BINDINGS["fuzz_found"] = [{"M": 1}, {"M": 3}, {"M": 65}, {"M": 1001}, {"M": 4099}, {"M": 16384}]
# Its row cases: short rows, and rows above 16384 (the cached variants),
# odd ones starting mid-vector.
BINDINGS["fuzz_found.bool_rows_cached_pairs"] = [{"M": 11, "N": 5}, {"M": 3, "N": 16385},
                                                 {"M": 2, "N": 32768}, {"M": 3, "N": 50001}]
BINDINGS["fuzz_found.var_of_rounded_product"] = [{"M": 1, "N": 1}, {"M": 3, "N": 7},
                                                 {"M": 3, "N": 16385}, {"M": 2, "N": 65536}]
INT_RANGES["fuzz_found.var_of_rounded_product"] = {"c": ("7", "8")}
BINDINGS["fuzz_found.column_var_merge_range"] = [{"N": 13, "K": 7}, {"N": 64, "K": 3},
                                                {"N": 1001, "K": 1}]
INT_RANGES["fuzz_found.column_var_merge_range"] = {"x": ("-43", "44")}
BINDINGS["fuzz_found.column_var_of_product"] = [{"M": 1, "N": 1}, {"M": 1, "N": 4099},
                                                {"M": 3, "N": 65}, {"M": 1001, "N": 7}]
BINDINGS["fuzz_found.softmax_unit_dim_of_product"] = [{"N": 1}, {"N": 2}, {"N": 7}, {"N": 4099}]
BINDINGS["fuzz_found.softmax_of_quotient_rows_of_one"] = [{"M": 1}, {"M": 5}, {"M": 101}, {"M": 4099}]
BINDINGS["fuzz_found.log_softmax_single_product"] = [{"N": 1}, {"N": 3}, {"N": 1000}]
BINDINGS["fuzz_found.nan_of_constants"] = [{}]
BINDINGS["fuzz_found.nan_compares_of_abs"] = [{"N": 1}, {"N": 11}, {"N": 4099}]
BINDINGS["fuzz_found.cached_row_gather_softmax"] = [{"K": 11, "M": 3, "R": 2}, {"K": 5, "M": 1, "R": 7},
                                                    {"K": 3, "M": 5, "R": 33}, {"K": 7, "M": 4099, "R": 3}]
INT_RANGES["fuzz_found.cached_row_gather_softmax"] = {"i": ("0", "K")}
BINDINGS["fuzz_found.lerp_weight_one"] = [{"N": 1}, {"N": 7}, {"N": 4099}]
BINDINGS["fuzz_found.signed_zeros_of_extremes"] = [{"M": 1, "N": 1}, {"M": 7, "N": 13}, {"M": 33, "N": 4099},
                                                   {"M": 1001, "N": 65}]

# indexing_pointwise.fus: the indexing fusions, for the pointwise generator.
for _fusion in ("scatter_two_per_row", "gather_select_pad", "random_mask"):
    BINDINGS["indexing_pointwise." + _fusion] = BINDINGS["indexing." + _fusion]
    INT_RANGES["indexing_pointwise." + _fusion] = INT_RANGES["indexing." + _fusion]

# scatter.fus: two-pass scatters. Up to 32 positions per line run in scan
# mode (up to 2^20 positions in all, unless the index is the same on every
# line), up to 1024 index positions as one block, more as three launches;
# K > M (or N) forces duplicate positions.
for _fusion in ("rows_sigmoid", "in_place_rows", "read_after_in_place"):
    BINDINGS["scatter." + _fusion] = [{"M": 1, "N": 1, "K": 1}, {"M": 7, "N": 13, "K": 20},
                                      {"M": 1000, "N": 1024, "K": 700},
                                      {"M": 3, "N": 100003, "K": 9},
                                      {"M": 5, "N": 150001, "K": 20}]
    INT_RANGES["scatter." + _fusion] = {"idx": ("0", "M")}
BINDINGS["scatter.cols_two_outputs"] = [{"M": 1, "N": 1, "K": 3}, {"M": 13, "N": 7, "K": 40},
                                        {"M": 4099, "N": 1000, "K": 64}]
INT_RANGES["scatter.cols_two_outputs"] = {"idx": ("0", "N")}
BINDINGS["scatter.sum_of_scatter"] = BINDINGS["scatter.cols_two_outputs"]
INT_RANGES["scatter.sum_of_scatter"] = {"idx": ("0", "N")}
BINDINGS["scatter.one_line_scalar_source"] = [{"N": 1, "K": 1}, {"N": 100, "K": 1000},
                                              {"N": 100003, "K": 5000}, {"N": 17, "K": 200000}]
INT_RANGES["scatter.one_line_scalar_source"] = {"idx": ("0", "N")}
BINDINGS["scatter.expanded_rows"] = [{"M": 1, "N": 1, "K": 1}, {"M": 5, "N": 33, "K": 12},
                                     {"M": 4096, "N": 1024, "K": 300}]
INT_RANGES["scatter.expanded_rows"] = {"rows": ("0", "M")}
BINDINGS["scatter.smaller_index"] = [{"M": 1, "N": 1, "K": 1, "J": 1},
                                     {"M": 9, "N": 65, "K": 30, "J": 64},
                                     {"M": 2048, "N": 1001, "K": 2048, "J": 999}]
INT_RANGES["scatter.smaller_index"] = {"idx": ("0", "M")}
# Rows: N a multiple of 8 runs phase 2 by vectors (scatter_rows8), others
# by element; K > M repeats rows.
BINDINGS["scatter.rows_bias_bf16"] = [{"M": 7, "N": 13, "K": 20}, {"M": 1000, "N": 1024, "K": 700},
                                      {"M": 64, "N": 4096, "K": 16}, {"M": 3, "N": 8, "K": 1000},
                                      {"M": 5, "N": 64, "K": 32}, {"M": 5, "N": 64, "K": 33},
                                      {"M": 9, "N": 24, "K": 64}, {"M": 9, "N": 24, "K": 65}]
INT_RANGES["scatter.rows_bias_bf16"] = {"rows": ("0", "M")}
BINDINGS["scatter.kv_cache_in_place"] = [{"S": 4096, "H": 8, "D": 128, "K": 1},
                                         {"S": 1024, "H": 8, "D": 128, "K": 16},
                                         {"S": 64, "H": 3, "D": 5, "K": 40},
                                         {"S": 300, "H": 2, "D": 64, "K": 290},
                                         {"S": 9, "H": 2, "D": 64, "K": 31}]
INT_RANGES["scatter.kv_cache_in_place"] = {"pos": ("0", "S")}

# Cases checked against PyTorch on the GPU instead of the interpreter: more
# than 2^31 elements, so 32-bit indexing would go wrong (too large for the
# interpreter), and reproducers of wrong results reported against PyTorch.
LARGE_CASES = {
    "reduction_broadcasts.sum_dtype_torch": {
        "bindings": [{"M": 1}, {"M": 3}, {"M": 129}, {"M": 4096}],
        "torch": lambda torch, x: (x * x.sum(-1, dtype=torch.float64)
                                   + x.sum(dtype=torch.float64)),
    },
    "big_add_relu.big_add_relu_1d": {
        "bindings": [{"N": 2**31 + 13}],
        "torch": lambda torch, x, b: torch.relu(x + b),
    },
    "big_add_relu.big_add_relu_2d": {
        "bindings": [{"M": 65537, "N": 32771}],
        "torch": lambda torch, x, b: torch.relu(x + b),
    },
}


# Extra fuserc options per file stem: indexing_pointwise.fus holds the
# indexing fusions compiled with the pointwise scheduler only, so their ops
# also run through the pointwise code generator (by default the transpose
# scheduler claims some).
FUSERC_OPTIONS = {
    "indexing_pointwise": ["--schedulers", "alias,pointwise"],
    # resize.fus tests the pointwise generator's resize variants.
    "resize": ["--schedulers", "alias,pointwise"],
    # straddle.fus: the permuted operand in a pointwise kernel, not a tile.
    "straddle": ["--schedulers", "alias,pointwise"],
    # plugin_f32.fus: kernels of the example plugin's own generator
    # ({fuserc_dir}: where fuserc is; scripts/build-device-tools.sh puts the
    # plugin beside it).
    "plugin_f32": ["--plugin", "{fuserc_dir}/libfuserc_example_plugin.so",
                   "--schedulers", "f32_elementwise,pointwise"],
}

# Files built and tested again for other --arch lists (case "group/stem@arch"):
# long_rows.fus for sm_80 alone, whose fatbin has no code for clusters, so
# on sm_90 the launch must take m1024 where it would take the cluster
# variant (whose sm_80 build is empty).
EXTRA_ARCHS = {
    "long_rows": ["sm_80"],
}


def _lookup(table, stem, fusion):
    return table.get("%s.%s" % (stem, fusion), table.get(stem))


def bindings_for(stem, fusion, symbols):
    """The list of {symbol: extent} a fusion runs at."""
    found = _lookup(BINDINGS, stem, fusion)
    if found is not None:
        return found
    return [{s: extent for s in symbols} for extent in GENERIC_EXTENTS]


def int_range(stem, fusion, input_name, binding):
    """[low, high) for an integer input, and "distinct" when its values must
    not repeat along its first dim."""
    ranges = _lookup(INT_RANGES, stem, fusion) or {}
    if input_name not in ranges:
        return -50, 50
    low, high = ranges[input_name][:2]
    bounds = (eval(low, {}, dict(binding)), eval(high, {}, dict(binding)))
    # A third entry "distinct": no value repeats along the first dim.
    return bounds + tuple(ranges[input_name][2:])


def large_case(stem, fusion):
    """The LARGE_CASES entry of a fusion, or None."""
    return LARGE_CASES.get("%s.%s" % (stem, fusion))
