// Shared by the image_*.cpp and vision_*.cpp kernel files (§3.8): each file registers its
// operators through one function declared here.
#pragma once

#include "interpreter/kernels/kernel.h"

namespace relay::rt {

void register_image_sampling_kernels(KernelTable& table);  // image_sampling.cpp
void register_vision_box_kernels(KernelTable& table);      // vision_box.cpp
void register_vision_nms_kernels(KernelTable& table);      // vision_nms.cpp
void register_vision_nms_class_kernels(KernelTable& table);  // vision_nms_class.cpp
void register_vision_roi_kernels(KernelTable& table);      // vision_roi.cpp
void register_vision_proposal_kernels(KernelTable& table);  // vision_proposal.cpp

}  // namespace relay::rt
