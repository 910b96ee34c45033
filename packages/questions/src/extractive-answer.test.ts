import { describe, expect, it } from 'vitest'
import { extractAnswer, extractiveAnswerOf, sentencesOf } from './extractive-answer.ts'
import type { QuestionSource } from './question-store.ts'

const idf = new Map<string, number>()

describe('extractAnswer', () => {
  it('answers with the sentence that holds the question, not the page', () => {
    const page = {
      sourceId: 'lumina-guide.pdf:p5',
      heading: null,
      text: '保証とサポート\nお手入れは乾いた布で行ってください。本製品の保証期間はお買い上げ日から2年間です。保証書は大切に保管してください。',
    }
    expect(extractAnswer('保証期間は何年ですか', page, idf)).toEqual({
      answer: '本製品の保証期間はお買い上げ日から2年間です。',
      quotes: ['本製品の保証期間はお買い上げ日から2年間です。'],
    })
  })

  it('prefers the sentence with a number when the question asks how many', () => {
    const text =
      'The lamp charges over USB-C with the supplied cable. A full charge of the lamp takes about 3 hours.'
    expect(
      extractAnswer(
        'How many hours does the lamp take to charge?',
        { sourceId: 'a.txt:L1', heading: null, text },
        idf,
      ).answer,
    ).toBe('A full charge of the lamp takes about 3 hours.')
  })

  it('answers a spreadsheet row with its answer cell when the question matches its question cell', () => {
    const row = {
      sourceId: 'faq.csv:r2',
      heading: null,
      text: '質問: アームの角度は調整できますか？\n回答: アームは上下に最大90度、左右に180度まで動かせます。\nカテゴリ: 本体',
    }
    expect(extractAnswer('アームの角度は調整できますか', row, idf)).toEqual({
      answer: 'アームは上下に最大90度、左右に180度まで動かせます。',
      quotes: ['回答: アームは上下に最大90度、左右に180度まで動かせます。'],
    })
  })

  it('answers a row without sentences with the cell whose column says what is asked, not the one named', () => {
    const row = {
      sourceId: 'equipment.csv:r3',
      heading: null,
      text: '品名: プロジェクター EP-100\n数量: 2\n保管場所: 2階会議室B\n担当者: 佐藤',
    }
    const answer = (question: string) => extractAnswer(question, row, idf)
    expect(answer('プロジェクターはどこに保管されていますか')).toEqual({
      answer: '2階会議室B',
      quotes: ['保管場所: 2階会議室B'],
      cell: { value: '2階会議室B', evidence: '品名: プロジェクター EP-100 / 保管場所: 2階会議室B' },
    })
    expect(answer('プロジェクターの担当者は誰ですか').answer).toBe('佐藤')
    expect(answer('プロジェクターは何台ありますか').answer).toBe('2')
    expect(answer('How many projectors are there?').answer).toBe('2')
  })

  it('answers with the sentence of the answer cell when the question matches that cell', () => {
    const row = {
      sourceId: 'faq.csv:r4',
      heading: null,
      text: '質問: 交換用の電球は売っていますか？\n回答: LEDは本体と一体型のため交換できません。LEDの寿命は約40000時間です。\nカテゴリ: 本体',
    }
    expect(extractAnswer('LEDの寿命は？', row, idf).answer).toBe('LEDの寿命は約40000時間です。')
  })

  it('keeps a multi-line cell whole', () => {
    const row = {
      sourceId: 'faq.csv:r3',
      heading: null,
      text: '質問: タイマー機能はありますか？\n回答: 30分後に消灯するスリープタイマーが使えます。\nアプリから設定してください。',
    }
    expect(extractAnswer('タイマー機能はありますか', row, idf).answer).toBe(
      '30分後に消灯するスリープタイマーが使えます。\nアプリから設定してください。',
    )
  })

  it('joins a sentence too short to stand alone with the next', () => {
    const text = '本体について。充電時間は約3時間。満充電で8時間点灯します。'
    expect(extractAnswer('充電時間は？', { sourceId: 'a.txt:L1', heading: null, text }, idf).quotes).toEqual([
      '充電時間は約3時間。',
      '満充電で8時間点灯します。',
    ])
  })
})

it('cuts sentences at Japanese and English ends and at line breaks', () => {
  expect(sentencesOf('見出し\n一つ目。二つ目！ Third one. Fourth?')).toEqual([
    '見出し',
    '一つ目。',
    '二つ目！',
    'Third one.',
    'Fourth?',
  ])
})

describe('extractiveAnswerOf', () => {
  const source = (sourceId: string, text: string): QuestionSource => ({
    rank: 1,
    sourceId,
    documentId: 'd1',
    title: sourceId,
    score: 1,
    retrievalScore: 1,
    text,
    parentText: text,
    heading: null,
    chunkId: 'c1',
  })

  it('finds the short answer in an FAQ row’s written answer, and the value cell its column names', () => {
    const faq = source(
      'faq.csv:r3',
      '質問: プレミアムプランはいつでも解約できますか？\n回答: いつでも解約できます。解約しても、その月の末日まではプレミアム機能を使えます。\nカテゴリ: 料金',
    )
    const stops = extractiveAnswerOf('解約したらすぐにプレミアム機能が使えなくなりますか', [faq], idf)
    expect(stops.citations[0]?.span).toBe('いいえ')
    const price = source(
      'faq.csv:r1',
      '質問: 料金は？\n回答: 基本機能は無料です。詳細表示は月額480円のプランで使えます。',
    )
    expect(extractiveAnswerOf('プランの月額料金はいくらですか', [price], idf).citations[0]?.span).toBe(
      '月額480円',
    )
    const stock = source('equipment.csv:r3', '品名: プロジェクター EP-100\n数量: 2\n保管場所: 2階会議室B')
    const where = extractiveAnswerOf('プロジェクターはどこに保管されていますか', [stock], idf)
    expect(where.answer).toBe(
      '2階会議室B（品名: プロジェクター EP-100 / 保管場所: 2階会議室B — equipment.csv:r3）',
    )
    expect(where.citations[0]).toMatchObject({ span: '2階会議室B', quotes: ['保管場所: 2階会議室B'] })
  })

  it('answers a document table’s row with the cell its column names, the row and column as evidence', () => {
    const loans = source(
      'loans.pdf:p2:t1:r3',
      'Equipment loans — Item: Tablet / Loan period: 7 days / Late fee per day: $10 / Deposit: $150',
    )
    const deposit = extractiveAnswerOf('What is the deposit for a tablet?', [loans], idf)
    expect(deposit.answer).toBe('$150 (Item: Tablet / Deposit: $150 — loans.pdf:p2:t1:r3)')
    expect(deposit.citations[0]).toMatchObject({ span: '$150', spanType: 'money', quotes: ['Deposit: $150'] })
    expect(
      extractiveAnswerOf('How much is the late fee for a tablet?', [loans], idf).citations[0]?.span,
    ).toBe('$10')
    expect(
      extractiveAnswerOf('How long can a tablet be borrowed for? (loan period)', [loans], idf).citations[0]
        ?.span,
    ).toBe('7 days')
    const plans = source(
      'plans.docx:t1:r4',
      '料金プラン一覧 — プラン: エンタープライズ / 月額料金: 48,000円 / ストレージ: 2TB / 備考: 年額払いは2か月分お得',
    )
    expect(extractiveAnswerOf('エンタープライズのストレージは？', [plans], idf).citations[0]?.span).toBe(
      '2TB',
    )
    expect(
      extractiveAnswerOf('エンタープライズの月額料金はいくらですか', [plans], idf).citations[0]?.span,
    ).toBe('48,000円')
    // No column says what is asked: the row answers whole, with no short answer.
    const vague = extractiveAnswerOf('エンタープライズについて教えて', [plans], idf)
    expect(vague.answer).toBe(plans.text)
    expect(vague.citations[0]?.span).toBeUndefined()
  })

  it('leads with the short answer and quotes the sentence and source it came from', () => {
    const page = source('guide.pdf:p5', 'お手入れは乾いた布で行ってください。保証期間は購入日から3年です。')
    const { answer, citations } = extractiveAnswerOf('保証期間は何年？', [page], idf)
    expect(answer).toBe('3年（保証期間は購入日から3年です。 — guide.pdf:p5）')
    expect(citations).toEqual([
      {
        marker: 1,
        sourceId: 'guide.pdf:p5',
        quotes: ['保証期間は購入日から3年です。'],
        span: '3年',
        spanType: 'date',
      },
    ])
  })

  it('quotes the one sentence its span stands in, never a span across two sentences', () => {
    const page = source('store.html#hours', '定休日\n毎週水曜日は定休日です。年末年始はお休みします。')
    const { answer, citations } = extractiveAnswerOf('定休日はいつですか', [page], idf)
    expect(citations).toEqual([
      {
        marker: 1,
        sourceId: 'store.html#hours',
        quotes: ['毎週水曜日は定休日です。'],
        span: '毎週水曜日',
        spanType: 'date',
      },
    ])
    expect(answer).toBe('毎週水曜日（毎週水曜日は定休日です。 — store.html#hours）')
  })

  it('finds the span in the sentence of the passage that holds it, quoting that sentence', () => {
    const page = source(
      'history.txt:L1',
      '江戸幕府の成立は日本史の転換点とされる。1603年、徳川家康は征夷大将軍に任じられて江戸幕府を開いた。',
    )
    const { citations } = extractiveAnswerOf('江戸幕府を開いたのは誰ですか', [page], idf)
    expect(citations[0]?.span).toBe('徳川家康')
    expect(citations[0]?.quotes).toEqual(['1603年、徳川家康は征夷大将軍に任じられて江戸幕府を開いた。'])
  })

  it('answers with the sentence alone when the question asks for a reason', () => {
    const page = source('guide.pdf:p6', 'LEDは本体と一体型のため交換できません。')
    const { answer, citations } = extractiveAnswerOf('なぜLEDを交換できないのですか', [page], idf)
    expect(answer).toBe('LEDは本体と一体型のため交換できません。')
    expect(citations[0]?.span).toBeUndefined()
  })
})
