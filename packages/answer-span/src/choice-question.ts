/**
 * The alternatives a question offers, when it asks which of them (AとBのどちら, AとBのうち,
 * A、B、Cの中で, "A or B"): the answer is one of them, named in the question itself — the one
 * place a short answer may repeat the question's words. Empty for any other question.
 */
export function choicesOf(question: string): string[] {
  const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/u.test(question)
  return japanese ? japaneseChoices(question) : englishChoices(question)
}

// What ends the list of alternatives: 〜のどちら, 〜とどっち, 〜のうち, 〜の中で, 〜のいずれ.
const JA_CHOICE = /(?:の|と|、|,)?\s*(?:どちら|どっち|うち|中で|なかで|いずれ)/
const QUOTED = /[『「]([^』」]+)[』」]/g
// A segment's alternative is what follows its last particle or comma (…多かったのは視聴覚資料 → 視聴覚資料).
const LAST_PARTICLE = /.*(?:は|が|を|に|で|、|,|，)/

function japaneseChoices(question: string): string[] {
  const end = question.search(JA_CHOICE)
  if (end <= 0) return []
  const list = question.slice(0, end).replace(/[、,\s]+$/, '')
  const quoted = [...list.matchAll(QUOTED)].map((match) => match[1] ?? '').filter(Boolean)
  if (quoted.length >= 2) return quoted
  // AとB (the list's own joiner) when there is one; else A、B、C.
  const separator = /と|や/.test(list) ? /と|や/ : /、/.test(list) ? /、/ : null
  if (!separator) return []
  const segments = list.split(separator).map((segment) => segment.replace(LAST_PARTICLE, '').trim())
  const choices = segments.slice(-4).filter((segment) => segment.length > 0 && segment.length <= 30)
  return choices.length >= 2 ? [...new Set(choices)] : []
}

function englishChoices(question: string): string[] {
  const asked = question.replace(/[?.!\s]+$/, '')
  const match = /(?:,|:)\s*([^,:]+?(?:,\s*[^,:]+?)*),?\s+or\s+([^,:]+)$/i.exec(asked)
  const last = match?.[2]
  if (!match || !last) return []
  const first = (match[1] ?? '').split(/,\s*/)
  return [...first, last].map((choice) => choice.replace(/^(the|a|an)\s+/i, '').trim()).filter(Boolean)
}
