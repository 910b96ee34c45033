import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface JapaneseTexts {
  /** Paragraphs of real Japanese prose, each cut to the given length. */
  passages: string[]
  questions: string[]
  source: string
}

/**
 * Real Japanese paragraphs and questions (JaQuAD dev under SHARED_DIR) for timing models on the
 * text users give them: tokenizers split Japanese very differently from ASCII filler. Without the
 * shared data, a repeated manual-style sentence stands in (and the output says so).
 */
export async function japaneseTexts(sharedDir: string, passageChars: number): Promise<JapaneseTexts> {
  const dir = join(sharedDir, 'data/jaquad-dev')
  const files = (await readdir(dir).catch(() => [])).filter((file) => file.endsWith('.json')).sort()
  const passages: string[] = []
  const questions: string[] = []
  for (const file of files.slice(0, 1)) {
    const dataset = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
      data: { paragraphs: { context: string; qas: { question: string }[] }[] }[]
    }
    for (const article of dataset.data)
      for (const paragraph of article.paragraphs) {
        if (paragraph.context.length >= passageChars) passages.push(paragraph.context.slice(0, passageChars))
        for (const qa of paragraph.qas) questions.push(qa.question)
      }
  }
  if (passages.length > 0) return { passages, questions, source: 'JaQuAD dev paragraphs' }
  const sentence = '管理画面の「設定」からデータベースの接続先と保存期間を変更できます。'
  return {
    passages: [sentence.repeat(Math.ceil(passageChars / sentence.length)).slice(0, passageChars)],
    questions: ['データベースの保存期間はどこで変更できますか？'],
    source: 'a repeated sentence (no JaQuAD under SHARED_DIR)',
  }
}
