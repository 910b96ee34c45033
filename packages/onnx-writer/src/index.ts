export { encodeModel, floatTensor, seededFloats, tensorType, writeModelFolder } from './onnx-writer.ts'
export { TOKENIZER_FILES } from './tokenizer-files.ts'
