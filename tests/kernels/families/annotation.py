"""Golden data for the markers that only annotate (reference §3.9): annotation.*,
on_device and device_copy type-check as their input's type and evaluate to their input.
device_copy's virtual devices are meta[VirtualDevice] references, as TVM prints them."""
import numpy as np

from families.common import Case, op_case, program, rng

META = '''
#[metadata]
{
  "root": 1,
  "nodes": [
    {"type_key": ""},
    {"type_key": "Map", "keys": ["VirtualDevice"], "data": [2]},
    {"type_key": "Array", "data": [3, 4]},
    {"type_key": "VirtualDevice", "attrs": {"device_type_int": "1", "virtual_device_id": "0", "target": "0", "memory_scope": "5"}},
    {"type_key": "VirtualDevice", "attrs": {"device_type_int": "2", "virtual_device_id": "0", "target": "0", "memory_scope": "5"}},
    {"type_key": "runtime.String", "repr_str": ""}
  ],
  "b64ndarrays": [],
  "attrs": {"tvm_version": "0.14.0"}
}
'''


def cases():
    out = []
    markers = [("annotation.bitpack_start", ""), ("annotation.bitpack_end", ""), ("annotation.checkpoint", ""),
               ("annotation.stop_fusion", ""), ("annotation.cast_hint", 'dtype="float32"'),
               ("annotation.compiler_begin", 'compiler="ccompiler"'), ("annotation.compiler_end", 'compiler="ccompiler"'),
               ("on_device", "virtual_device=meta[VirtualDevice][0], constrain_result=True")]
    for op, attrs in markers:
        name = op.replace(".", "_")
        x = rng(name).uniform(-1, 1, (2, 3)).astype("float32")
        c = op_case(name, op, [x], x, attrs=attrs)
        if "meta[" in attrs:
            c.program += META
        out.append(c)
    x = rng("device_copy").integers(-5, 5, (4,)).astype("int32")
    c = op_case("device_copy", "device_copy", [x], x,
                attrs="src_virtual_device=meta[VirtualDevice][0], dst_virtual_device=meta[VirtualDevice][1]")
    c.program += META
    out.append(c)
    # on_device around a tuple: the marker is an identity on any type.
    a = rng("on_device_tuple").uniform(-1, 1, (3,)).astype("float32")
    prog = program([a], "%0 = on_device((%x0, %x0), virtual_device=meta[VirtualDevice][0]);\n  %0.1") + META
    out.append(Case("on_device_tuple", prog, [a], a))
    return out
