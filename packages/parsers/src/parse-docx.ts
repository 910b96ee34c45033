import mammoth from 'mammoth'
import { parseHtmlText } from './parse-html.ts'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
import { DocumentParseError } from './parsed-section.ts'
import { checkUnzippedSize } from './zip-size.ts'

/** Word headings become HTML headings (mammoth), then the same sections as HTML. */
export async function parseDocx(
  data: Uint8Array,
  filename: string,
  limits: Pick<ParseLimits, 'maxUnzippedBytes' | 'maxHtmlDepth'> = DEFAULT_PARSE_LIMITS,
) {
  if (data.length === 0) throw new DocumentParseError('the file is empty')
  await checkUnzippedSize(data, 'DOCX', limits.maxUnzippedBytes)
  let html: string
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(data) })).value
  } catch (error) {
    throw new DocumentParseError(
      `not a readable DOCX file: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
  return parseHtmlText(html, filename, limits)
}
