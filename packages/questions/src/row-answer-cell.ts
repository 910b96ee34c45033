import { type QuestionType, questionFrame } from '@rag/answer-span'
import { analyzeText } from '@rag/keyword'

/**
 * Column names that hold what a question word asks for: どこ → a place or a storage column, いつ →
 * a date, 誰 → a person in charge, いくつ/いくら → a count or a price. Japanese and English.
 */
const COLUMNS_FOR: Partial<Record<QuestionType, RegExp>> = {
  place:
    /場所|所在|保管|置き場|設置|住所|拠点|フロア|会議室|部屋|倉庫|棚|location|place|room|address|site|where/i,
  date: /日|期限|期間|時期|時刻|時間|年月|締切|date|time|deadline|period|due|when/i,
  person: /担当|責任者|管理者|氏名|名前|連絡先|者$|person|owner|manager|contact|name|assignee/i,
  number: /数|量|個|件|額|価格|料金|金額|円|率|count|qty|quantity|amount|price|cost|rate|number|total/i,
}

/**
 * A row's cell that answers by its column: the one whose column name says what the question asks
 * for (its question word's kind, or its own words: 保管されて → 保管場所), leaving out the cell
 * the question names its subject by (`asked`). Null when no column says so: the caller then
 * answers as for an FAQ row (the longest cell).
 */
export function answerCellByColumn(
  question: string,
  cells: readonly { column: string }[],
  asked: number,
): number | null {
  const frame = questionFrame(question)
  const wanted = COLUMNS_FOR[frame.type]
  const questionWords = new Set(analyzeText(question, { question: true }).words)
  let best: number | null = null
  let bestScore = 0
  cells.forEach((cell, i) => {
    if (i === asked) return
    const columnWords = analyzeText(cell.column).words
    const named = columnWords.filter((word) => questionWords.has(word)).length
    const score = (wanted?.test(cell.column) ? 1 : 0) + named
    if (score > bestScore) {
      best = i
      bestScore = score
    }
  })
  return best
}
