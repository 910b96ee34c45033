/** The files of a WordPiece tokenizer folder transformers.js reads beside a model. */
export const TOKENIZER_FILES = [
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'vocab.txt',
]
