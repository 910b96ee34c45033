import { z } from 'zod'
import { decodeText } from './decode-text.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'

const record = z.object({
  id: z.union([z.string().min(1), z.number()]),
  title: z.string().optional(),
  text: z.string().min(1),
})

/**
 * One record per line `{id, title?, text}`: each record is a document of its own for retrieval and
 * citation (source = the record id), stored as one section of the uploaded file.
 */
export function parseJsonl(data: Uint8Array): ParsedSection[] {
  const lines = decodeText(data, 'JSONL').split(/\r?\n/)
  const sections: ParsedSection[] = []
  const seen = new Set<string>()
  lines.forEach((line, index) => {
    if (!line.trim()) return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new DocumentParseError(
        `line ${index + 1}: not JSON (${error instanceof Error ? error.message : error})`,
      )
    }
    const parsed = record.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new DocumentParseError(
        `line ${index + 1}: ${issue?.path.join('.') || 'record'} ${issue?.message ?? 'invalid'}`,
      )
    }
    const id = String(parsed.data.id)
    if (seen.has(id)) throw new DocumentParseError(`line ${index + 1}: duplicate id ${JSON.stringify(id)}`)
    seen.add(id)
    const title = parsed.data.title?.trim() || null
    sections.push({
      sourceId: id,
      heading: title,
      units: [title ? `${title}\n\n${parsed.data.text}` : parsed.data.text],
    })
  })
  if (sections.length === 0) throw new DocumentParseError('the file holds no records')
  return sections
}
