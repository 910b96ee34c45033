import { typedSpanEvidence } from '@rag/answer-span'
import { analyzeQuery, coverageNearKind, phraseShare, windowCoverage } from '@rag/keyword'
import { EVIDENCE_WINDOW } from './evidence-window.ts'
import { asksBeyond, isYesNoQuestion, statesLimit } from './stated-limit.ts'

/**
 * What the passages say about whether they answer the question, each 0..1, read from the best
 * passage (the one covering most of the question) against the others found with it. A learned
 * judgement weighs them (packages/questions: answerability-model.json); each alone is a weak
 * test: a neighbouring paragraph of the same article covers the question's topic words as well as
 * the paragraph that answers.
 */
export interface AnswerabilitySignals {
  /** The share of the question's IDF mass found together (within EVIDENCE_WINDOW terms). */
  evidence: number
  /** How much more of it the best passage covers than the next best. */
  lead: number
  /**
   * Coverage with each word weighed by how few of the passages found hold it: the topic words every
   * candidate shares count little, the words only the answering passage holds count most.
   */
  distinctive: number
  /** The share of the question's adjacent word pairs side by side in the passage (its phrasing). */
  phrase: number
  /** The question's rarest word is in the passage. */
  rarest: number
  /** Of the IDF mass, the share of words the corpus has never seen (the question is about something else). */
  unseen: number
  /** The question asks for a date or number (いつ, 何人, how many). */
  asksKind: number
  /** When it does: coverage of the question around a date or number in the passage (0 otherwise). */
  kindNear: number
  /**
   * A yes/no question, or one about something beyond what it names (以外, other than), whose best
   * passage states a limit or a no (のみ, だけ, 対応していません, only): the passage decides it.
   */
  limit: number
  /** The question asks for a name, a place, a date, a number or an amount (answerTypeOf). */
  asksTyped: number
  /**
   * When it does: how sure the span model is of the best span of that kind in the best passage
   * (0 when it holds none): a passage on the topic without the fact asked for holds none.
   */
  typedSpan: number
}

export const SIGNAL_NAMES = [
  'evidence',
  'lead',
  'distinctive',
  'phrase',
  'rarest',
  'unseen',
  'asksKind',
  'kindNear',
  'limit',
  'asksTyped',
  'typedSpan',
] as const satisfies readonly (keyof AnswerabilitySignals)[]

export interface CandidatePassage {
  id: string
  /** The chunk's analysed words in text order. */
  terms: string[]
  /** Its text, where a limit (のみ, only) is read: the analyser drops those words. */
  text?: string
}

const round = (value: number) => Math.round(value * 1000) / 1000

/**
 * The signals of a question over its first `judged` candidate passages (in rank order), with each passage's
 * evidence. `idf` holds the question's words with their IDF; `unseenWords` those the corpus lacks
 * (1: not at all, less: a synonym of it is there).
 */
export function answerabilitySignals(
  question: string,
  idf: Map<string, number>,
  unseenWords: Map<string, number>,
  everyCandidate: CandidatePassage[],
  judged = everyCandidate.length,
): { signals: AnswerabilitySignals; evidence: Map<string, number>; bestId: string | null } {
  const evidence = new Map<string, number>()
  for (const candidate of everyCandidate)
    evidence.set(candidate.id, round(windowCoverage(idf, candidate.terms, EVIDENCE_WINDOW)))
  // The signals read the first `judged` (what a person's question is judged over, SEARCH_K),
  // however many more were asked for (the evaluation ranks 20): the same judgement either way.
  const candidates = everyCandidate.slice(0, judged)
  const ordered = [...candidates].sort((a, b) => (evidence.get(b.id) ?? 0) - (evidence.get(a.id) ?? 0))
  const best = ordered[0]
  const { pairs, kind } = analyzeQuery(question)
  const total = [...idf.values()].reduce((sum, weight) => sum + weight, 0)
  const unseen =
    total > 0
      ? [...idf].reduce((sum, [word, weight]) => sum + weight * (unseenWords.get(word) ?? 0), 0) / total
      : 0
  const typed = typedSpanEvidence(question, best?.text ?? '')
  if (!best)
    return {
      signals: { ...EMPTY, unseen: round(unseen), asksKind: kind ? 1 : 0, asksTyped: typed.asks ? 1 : 0 },
      evidence,
      bestId: null,
    }
  const sets = candidates.map((candidate) => new Set(candidate.terms))
  const local = new Map<string, number>()
  for (const [word, weight] of idf) {
    const holding = sets.filter((terms) => terms.has(word)).length
    // A word every candidate holds keeps a little weight: with one candidate, all of it.
    local.set(word, weight * (1 - holding / candidates.length + 1 / candidates.length))
  }
  const rarest = [...idf].sort((a, b) => b[1] - a[1])[0]?.[0]
  const first = evidence.get(best.id) ?? 0
  const second = ordered[1] ? (evidence.get(ordered[1].id) ?? 0) : 0
  return {
    signals: {
      evidence: first,
      lead: round(first - second),
      distinctive: round(windowCoverage(local, best.terms, EVIDENCE_WINDOW)),
      phrase: round(phraseShare(pairs, idf, best.terms)),
      rarest: rarest !== undefined && best.terms.includes(rarest) ? 1 : 0,
      unseen: round(unseen),
      asksKind: kind ? 1 : 0,
      kindNear: kind ? round(coverageNearKind(kind, idf, best.terms, EVIDENCE_WINDOW / 2)) : 0,
      limit: (isYesNoQuestion(question) || asksBeyond(question)) && statesLimit(best.text ?? '') ? 1 : 0,
      asksTyped: typed.asks ? 1 : 0,
      typedSpan: typed.probability,
    },
    evidence,
    bestId: best.id,
  }
}

const EMPTY: AnswerabilitySignals = {
  evidence: 0,
  lead: 0,
  distinctive: 0,
  phrase: 0,
  rarest: 0,
  unseen: 0,
  asksKind: 0,
  kindNear: 0,
  limit: 0,
  asksTyped: 0,
  typedSpan: 0,
}
