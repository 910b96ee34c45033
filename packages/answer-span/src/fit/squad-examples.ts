import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'

/** One question of a SQuAD-format file, with the sentence of its context that holds the gold answer. */
export interface SpanExample {
  question: string
  /** The sentence the gold answer stands in (cut as the platform cuts sentences). */
  sentence: string
  /** The context's sentences, and which of them holds the gold answer. */
  sentences: string[]
  answerSentence: number
  answers: string[]
  /** The article it comes from: held-out questions are split by article, never within one. */
  article: string
}

interface SquadFile {
  data: {
    title: string
    paragraphs: {
      context: string
      qas: { question: string; answers: { text: string; answer_start: number }[] }[]
    }[]
  }[]
}

const sentences = new Intl.Segmenter('ja', { granularity: 'sentence' })

/** A context's sentences with their offsets, never across a line break. */
function sentenceSpans(context: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = []
  let lineStart = 0
  for (const line of context.split('\n')) {
    for (const { segment, index } of sentences.segment(line))
      spans.push({ start: lineStart + index, end: lineStart + index + segment.length })
    lineStart += line.length + 1
  }
  return spans
}

/**
 * The examples of SQuAD-format files (JaQuAD, JSQuAD, SQuAD train): each question with the
 * sentence holding its first gold answer; a question whose answer crosses sentences is left out.
 */
export function squadExamples(files: string[]): SpanExample[] {
  const examples: SpanExample[] = []
  for (const file of files) {
    const squad = JSON.parse(readFileSync(file, 'utf8')) as SquadFile
    for (const article of squad.data) {
      for (const { context, qas } of article.paragraphs) {
        const spans = sentenceSpans(context).filter(
          (span) => context.slice(span.start, span.end).trim() !== '',
        )
        const texts = spans.map((span) => context.slice(span.start, span.end).trim())
        for (const qa of qas) {
          const gold = qa.answers[0]
          if (!gold) continue
          const holder = spans.findIndex(
            (span) => span.start <= gold.answer_start && gold.answer_start + gold.text.length <= span.end,
          )
          if (holder < 0) continue
          examples.push({
            question: qa.question,
            sentence: texts[holder] ?? '',
            sentences: texts,
            answerSentence: holder,
            answers: qa.answers.map((answer) => answer.text),
            article: `${file}#${article.title}`,
          })
        }
      }
    }
  }
  return examples
}

/** File names of held-out data (JSQuAD valid/test, JaQuAD and SQuAD dev), which are never fitted on. */
const HELD_OUT_NAME = /valid|test|dev/i

/** The SQuAD-format files of the paths given (a folder gives its .json files); held-out files refused. */
export function trainingFiles(paths: string[]): string[] {
  const files = paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => join(path, name))
      : [path],
  )
  if (files.length === 0) throw new Error('--train: give at least one SQuAD-format training file or folder')
  const heldOut = files.filter((file) => HELD_OUT_NAME.test(basename(file)))
  if (heldOut.length > 0)
    throw new Error(`--train: not a training file (held-out data is never fitted on): ${heldOut.join(', ')}`)
  return files
}
