// §3.8 vision.*: the registration of the vision_*.cpp kernel files.
#include "interpreter/kernels/image_internal.h"

namespace relay::rt {

void register_vision_kernels(KernelTable& table) {
  register_vision_box_kernels(table);
  register_vision_nms_kernels(table);
  register_vision_nms_class_kernels(table);
  register_vision_roi_kernels(table);
  register_vision_proposal_kernels(table);
}

}  // namespace relay::rt
