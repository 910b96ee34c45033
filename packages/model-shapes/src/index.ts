export { writeDecoderGguf } from './decoder-gguf.ts'
export { type EncoderHead, type EncoderShape, encoderOnnx } from './encoder-onnx.ts'
export { shapeTrueDecoder, shapeTrueEncoder } from './shape-true-cache.ts'
