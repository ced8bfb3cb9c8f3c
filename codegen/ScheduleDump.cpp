// The schedule dump (see ScheduleDump.h).
#include "codegen/ScheduleDump.h"

namespace fuserc {

void printSchedule(const std::vector<FusionCode> &code, llvm::raw_ostream &os) {
  for (size_t f = 0; f < code.size(); ++f) {
    const FusionCode &fusion = code[f];
    if (f)
      os << "\n";
    if (!fusion.unsupported.empty()) {
      os << "fusion " << fusion.fusion << ": no code: " << fusion.unsupported << "\n";
      continue;
    }
    os << "fusion " << fusion.fusion << ": " << fusion.kernels.size() << " kernel"
       << (fusion.kernels.size() == 1 ? "" : "s") << ", workspace " << fusion.workspaceBytes.str()
       << " bytes\n";
    for (const KernelPlan &k : fusion.kernels) {
      os << "  kernel " << k.name << " (segment " << k.segment << ", " << k.scheduler << ")\n";
      os << "    ops:";
      for (const std::string &op : k.ops)
        os << " " << op;
      os << "\n";
      os << "    family: " << k.family << "\n";
      for (const ScheduleField &p : k.parameters)
        os << "    " << p.name << ": " << scheduleValueString(p.value) << "\n";
      os << "    variants:\n";
      for (const KernelVariant &v : k.variants)
        os << "      " << v.symbol << ": " << v.condition << "\n";
      os << "    selection: " << k.selection << "\n";
      os << "    launch: " << k.launchGeometry << "\n";
      if (!k.leftOut.empty())
        os << "    left out (--variants): " << k.leftOut << "\n";
      os << "    bytes moved: " << k.bytesMoved.str() << "\n";
    }
  }
}

} // namespace fuserc
