import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Polarity } from '@rag/answer-span'

/** A yes/no question, a sentence, and what the sentence says to it. */
export interface PolarityPair {
  question: string
  sentence: string
  expected: Polarity
  language: 'ja' | 'en'
  /** How the pair was made from its real sentence (the report counts each). */
  kind: 'as-written' | 'negated-sentence' | 'negated-question' | 'other-sentence' | 'opposite' | 'faq'
}

interface SquadFile {
  data: { paragraphs: { context: string }[] }[]
}

/** Paragraphs of a SQuAD-format file or folder of them (JaQuAD is split into several files). */
async function paragraphsOf(path: string): Promise<string[]> {
  const files = path.endsWith('.json')
    ? [path]
    : (await readdir(path))
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => join(path, name))
  const paragraphs: string[] = []
  for (const file of files) {
    const squad = JSON.parse(await readFile(file, 'utf8')) as SquadFile
    for (const article of squad.data)
      for (const paragraph of article.paragraphs) paragraphs.push(paragraph.context)
  }
  return paragraphs
}

// Japanese: a sentence saying something of its subject, its ending turned into a question's (and
// a negation's), as a reader asking of it would: 〜である。→ 〜ですか？ / 〜ではない。
const JA_ENDINGS: { ending: RegExp; question: string; negated: string; negatedQuestion: string }[] = [
  { ending: /である。$/, question: 'ですか？', negated: 'ではない。', negatedQuestion: 'ではありませんか？' },
  { ending: /ている。$/, question: 'ていますか？', negated: 'ていない。', negatedQuestion: 'ていませんか？' },
  {
    ending: /です。$/,
    question: 'ですか？',
    negated: 'ではありません。',
    negatedQuestion: 'ではありませんか？',
  },
  { ending: /ます。$/, question: 'ますか？', negated: 'ません。', negatedQuestion: 'ませんか？' },
]
// Opposites whose swap keeps the sentence grammatical: 必要 → 不要 says the opposite.
const JA_OPPOSITES: [string, string][] = [
  ['必要', '不要'],
  ['可能', '不可能'],
  ['有効', '無効'],
  ['有料', '無料'],
]
const EN_CLAIM =
  /^((?:The|A|An|This|These|Its|His|Her|Their) [^,;:()]{2,50}?|[A-Z][^,;:()]{2,50}?) (is|was|are|were) ([^,;:()]{3,80})\.$/
const EN_DETERMINERS = /^(The|A|An|This|These|Its|His|Her|Their) /

const sentencesOf = (paragraph: string, japanese: boolean) =>
  (japanese ? paragraph.split(/(?<=。)/) : paragraph.split(/(?<=\.)\s+(?=[A-Z])/))
    .map((sentence) => sentence.trim())
    .filter(Boolean)

/** Every `step`-th of a list, so the set spreads over the whole corpus rather than its first articles. */
const spread = <T>(items: T[], count: number) => {
  const step = Math.max(1, Math.floor(items.length / count))
  return items.filter((_, index) => index % step === 0).slice(0, count)
}

function japanesePairs(paragraphs: string[], count: number): PolarityPair[] {
  const candidates: { sentence: string; other: string | undefined }[] = []
  for (const paragraph of paragraphs) {
    const sentences = sentencesOf(paragraph, true)
    sentences.forEach((sentence, index) => {
      const length = [...sentence].length
      if (length < 12 || length > 60 || /[「」『』（）()]/.test(sentence)) return
      if (!JA_ENDINGS.some(({ ending }) => ending.test(sentence))) return
      candidates.push({ sentence, other: sentences[index === 0 ? 1 : 0] })
    })
  }
  const pairs: PolarityPair[] = []
  for (const { sentence, other } of spread(candidates, count)) {
    const form = JA_ENDINGS.find(({ ending }) => ending.test(sentence))
    if (!form) continue
    const question = sentence.replace(form.ending, form.question)
    const negated = sentence.replace(form.ending, form.negated)
    pairs.push(
      { question, sentence, expected: 'yes', language: 'ja', kind: 'as-written' },
      { question, sentence: negated, expected: 'no', language: 'ja', kind: 'negated-sentence' },
      // はい to 〜ではありませんか can agree with either reading: no yes or no is given.
      {
        question: sentence.replace(form.ending, form.negatedQuestion),
        sentence,
        expected: 'undecided',
        language: 'ja',
        kind: 'negated-question',
      },
    )
    if (other && other !== sentence)
      pairs.push({ question, sentence: other, expected: 'undecided', language: 'ja', kind: 'other-sentence' })
  }
  for (const paragraph of paragraphs) {
    for (const sentence of sentencesOf(paragraph, true)) {
      // 可能性 (a possibility) is not 可能 (possible): the swap would not say the opposite.
      // …and only where the word is what the sentence asserts (its predicate: kana to the full
      // stop); swapped elsewhere (有効床面積) the sentence says nothing opposite.
      const pair = JA_OPPOSITES.find(
        ([word]) =>
          sentence.includes(word) &&
          !sentence.includes(`不${word}`) &&
          /^[\p{Script=Hiragana}]{0,10}。$/u.test(sentence.slice(sentence.lastIndexOf(word) + word.length)),
      )
      const form = JA_ENDINGS.find(({ ending }) => ending.test(sentence))
      if (!pair || !form || [...sentence].length > 70) continue
      const question = sentence.replace(form.ending, form.question)
      pairs.push(
        { question, sentence, expected: 'yes', language: 'ja', kind: 'opposite' },
        {
          question,
          sentence: `${sentence.slice(0, sentence.lastIndexOf(pair[0]))}${pair[1]}${sentence.slice(sentence.lastIndexOf(pair[0]) + pair[0].length)}`,
          expected: 'no',
          language: 'ja',
          kind: 'opposite',
        },
      )
    }
  }
  return pairs
}

function englishPairs(paragraphs: string[], count: number): PolarityPair[] {
  const candidates: { sentence: string; other: string | undefined; claim: RegExpExecArray }[] = []
  for (const paragraph of paragraphs) {
    const sentences = sentencesOf(paragraph, false)
    sentences.forEach((sentence, index) => {
      const claim = EN_CLAIM.exec(sentence)
      if (!claim || /\b(not|no|never|n't)\b/i.test(sentence)) return
      candidates.push({ sentence, other: sentences[index === 0 ? 1 : 0], claim })
    })
  }
  const pairs: PolarityPair[] = []
  for (const { sentence, other, claim } of spread(candidates, count)) {
    const [, subject = '', verb = '', rest = ''] = claim
    const asked = EN_DETERMINERS.test(subject) ? subject[0]?.toLowerCase() + subject.slice(1) : subject
    const Verb = verb[0]?.toUpperCase() + verb.slice(1)
    const question = `${Verb} ${asked} ${rest}?`
    const negated = `${subject} ${verb} not ${rest}.`
    const negatedQuestion = `${Verb}n't ${asked} ${rest}?`
    pairs.push(
      { question, sentence, expected: 'yes', language: 'en', kind: 'as-written' },
      { question, sentence: negated, expected: 'no', language: 'en', kind: 'negated-sentence' },
      // English answers a negated question by the fact: "Isn't it …?" — "Yes, it is."
      { question: negatedQuestion, sentence, expected: 'yes', language: 'en', kind: 'negated-question' },
      {
        question: negatedQuestion,
        sentence: negated,
        expected: 'no',
        language: 'en',
        kind: 'negated-question',
      },
    )
    if (other && other !== sentence)
      pairs.push({ question, sentence: other, expected: 'undecided', language: 'en', kind: 'other-sentence' })
  }
  return pairs
}

/**
 * The polarity set (`pnpm eval --polarity`): yes/no questions made from real sentences of the
 * shared reading sets (JaQuAD dev, SQuAD dev) — each asked as written (yes), against the sentence
 * negated (no), negated itself, against another sentence of its paragraph (undecided), and, where
 * the sentence holds a pair of opposites (必要/不要), against the sentence saying the other one. Made
 * when run, from SHARED_DIR: the corpora are never copied into the repository.
 */
export async function polaritySet(
  { jaquad, squad }: { jaquad: string; squad: string },
  perLanguage = 100,
): Promise<PolarityPair[]> {
  const [ja, en, faq] = await Promise.all([paragraphsOf(jaquad), paragraphsOf(squad), faqPairs()])
  return [...japanesePairs(ja, perLanguage), ...englishPairs(en, perLanguage), ...faq]
}

/** FAQ answers as a service writes them (data/eval/polarity/faq-pairs.jsonl, written for this set), labelled as a reader would. */
export async function faqPairs(
  path = fileURLToPath(new URL('../../../data/eval/polarity/faq-pairs.jsonl', import.meta.url)),
): Promise<PolarityPair[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const pair = JSON.parse(line) as Pick<PolarityPair, 'question' | 'sentence' | 'expected'>
      return {
        ...pair,
        language: /[\u3040-\u30ff\u4e00-\u9fff]/u.test(pair.question) ? 'ja' : 'en',
        kind: 'faq',
      }
    })
}
