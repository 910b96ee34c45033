/**
 * Terms in a row that count as one place in a passage (about two sentences). The question's
 * terms found together there are evidence; the same terms scattered over a long passage about the
 * topic mostly are not: measured on JaQuAD with the gold paragraph removed, windows of 30 refuse
 * 51% of the unanswerable questions at 5% false refusals against 45% for the whole chunk.
 */
export const EVIDENCE_WINDOW = 30
