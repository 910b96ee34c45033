/** A token tensor as transformers.js gives it: int64 values, [rows, length]. */
interface TokenTensor {
  data: BigInt64Array | number[] | ArrayLike<bigint | number>
  dims: number[]
}

/**
 * Puts the closing special token ([SEP], </s>) back at the end of each row the tokenizer cut to the
 * model's window. transformers.js truncates after adding special tokens, so a passage longer than
 * the window loses its closing token, and the model (trained to see one) embeds it off its usual
 * ground. A row that reaches the last column without that token was cut; others are left alone.
 */
export function closeTruncatedRows(
  inputIds: TokenTensor,
  attentionMask: TokenTensor,
  closingToken: number,
): number {
  const [rows = 0, length = 0] = inputIds.dims
  const ids = inputIds.data as unknown as (bigint | number)[]
  const mask = attentionMask.data as unknown as (bigint | number)[]
  const closing = typeof ids[0] === 'bigint' ? BigInt(closingToken) : closingToken
  let closed = 0
  for (let row = 0; row < rows; row++) {
    const last = row * length + length - 1
    if (Number(mask[last]) === 1 && ids[last] !== closing) {
      ids[last] = closing
      closed += 1
    }
  }
  return closed
}

/** The token a tokenizer closes a sequence with, from how it frames an empty text (none: no frame). */
export function closingTokenOf(framed: number[]): number | undefined {
  return framed.length >= 2 ? framed.at(-1) : undefined
}
