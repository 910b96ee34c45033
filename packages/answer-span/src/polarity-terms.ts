import type { Term } from './find-side.ts'

export const NOT_STATED =
  /記載(は|が)?(あり|ござい)ません|記載(は|が)?ない|記載なし|(定め|規定|明記)(は|が)?(あり|ござい)ません|明記されていません|(不明|未定)です|\b(is|are)\s+not\s+(stated|mentioned|specified|listed)\b|\bdoes\s+not\s+(say|mention|state|specify)\b|\bno\s+(information|mention)\s+(of|about|on)\b|\b(is|are)\s+(unknown|undecided|not\s+yet\s+decided)\b/i

/**
 * Words of one meaning and its opposite: a question asking one side is answered yes by a sentence
 * saying the same side, no by one saying the other (必要 against 不要, "only" against "other than").
 * Longer forms first: 不必要 is not read as 必要.
 */
// A price stated: the thing costs (年会費5,000円をいただきます answers かかりますか).
const JA_AMOUNT = /[\d０-９][\d,，]*\s?(万)?円|[¥￥]\s?\d/g
const EN_AMOUNT = /[$£€¥]\s?\d|\b\d+(\.\d+)?\s?(dollars|yen|euros|pounds)\b/gi

/**
 * A pair of opposites. In Japanese a question asks its predicate, so a pair's word elsewhere in it
 * is not its claim — except for pairs marked `anywhere`: a price (無料で使えますか asks whether it is
 * free) and "other than" (本人以外でも受け取れますか asks whether someone else may).
 */
export interface OppositePair {
  yes: Term[]
  no: Term[]
  anywhere?: boolean
}

export const OPPOSITES: OppositePair[] = [
  {
    yes: ['あります', 'ある', 'あり', 'ございます', '有り', '設けて'],
    no: ['ありません', 'ございません', 'なし', '無し'],
  },
  {
    yes: [
      '必要',
      '必須',
      '要り',
      '要る',
      '要します',
      'なければなりません',
      'なければならない',
      'なくてはなりません',
      '必ず',
    ],
    no: [
      '不要',
      '不必要',
      '任意',
      '要りません',
      '要らない',
      'なくても構いません',
      'なくてもよい',
      'なくても大丈夫',
      'なしでも',
      'なくても',
    ],
  },
  {
    yes: ['可能', 'でき', '出来', '可', 'いただけ', '受け付け', '受付け', '対応し'],
    no: ['不可能', '不可', '禁止', '禁じ', 'ご遠慮', '遠慮'],
  },
  // 料金はかかりません: a charge, negated.
  {
    yes: [
      '有料',
      '料金がかか',
      '料金はかか',
      '費用がかか',
      '費用はかか',
      '別料金',
      'かかり',
      'かかる',
      JA_AMOUNT,
    ],
    no: ['無料', '無償', 'タダ'],
    anywhere: true,
  },
  {
    yes: ['違う', '違い', '異なる', '異なり', '別々', '差があ', '倍', '高く', '安く', '割増', '割引'],
    no: ['同一', '同じ', '共通', '同額', '一律', '変わりません', '変わらない'],
  },
  { yes: ['許可', '認め'], no: ['不許可', '禁止'] },
  {
    yes: ['含む', '含まれ', '込み', '税込'],
    no: ['含まない', '含まれない', '含まれません', '別途', '除く', '除き', '対象外', '税別'],
  },
  { yes: ['有効'], no: ['無効', '失効'] },
  {
    yes: ['営業', '開館', '開店', '開いて', '空いて'],
    no: ['休業', '休館', '定休', '閉館', '休み', '閉まって', '満席', '満室'],
  },
  { yes: ['以外', 'ほか', '他の'], no: ['のみ', /(?<!いた)だけ/g, '限り', '限定'], anywhere: true },
  {
    yes: ['required', 'necessary', 'mandatory', 'needed', 'need', 'must'],
    no: ['optional', 'unnecessary', 'not required', 'not needed', 'no need'],
  },
  {
    yes: ['possible', 'allowed', 'permitted', 'accepted', 'accept', 'accepts', 'can', 'able'],
    no: [
      'impossible',
      'prohibited',
      'forbidden',
      'banned',
      'not allowed',
      'not permitted',
      'cannot',
      "can't",
    ],
  },
  {
    yes: ['paid', 'fee', 'charge', 'charged', 'costs', EN_AMOUNT],
    no: ['free', 'no charge', 'free of charge', 'complimentary', 'no fee'],
  },
  {
    yes: [
      'differently',
      'different',
      'differ',
      'differs',
      'vary',
      'varies',
      'higher',
      'lower',
      'cheaper',
      'more expensive',
      'less expensive',
    ],
    no: ['same', 'identical', 'equal', 'uniform', 'no difference'],
  },
  {
    yes: ['included', 'includes', 'include'],
    no: ['excluded', 'excludes', 'not included', 'extra', 'separately'],
  },
  { yes: ['open'], no: ['closed', 'shut'] },
  { yes: ['valid'], no: ['invalid', 'expired'] },
  {
    yes: ['other than', 'besides', 'except', 'apart from', 'anything but', 'outside'],
    no: ['only', 'solely', 'exclusively'],
  },
]
