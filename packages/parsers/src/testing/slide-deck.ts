import PptxGenJS from 'pptxgenjs'

/** A deck of three slides with title placeholders: text, a table, speaker notes. */
export async function threeSlideDeck(): Promise<Buffer> {
  // The package's types describe a CommonJS default export; at run time the import is the class.
  const deck = new (PptxGenJS as unknown as typeof PptxGenJS.default)()
  deck.defineSlideMaster({
    title: 'TITLED',
    objects: [
      { placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.3, w: 9, h: 1 }, text: '' } },
    ],
  })
  const first = deck.addSlide({ masterName: 'TITLED' })
  first.addText('ルミナ L-200 のご紹介', { placeholder: 'title' })
  first.addText('充電式のLEDデスクライトです。満充電で8時間点灯します。', { x: 0.5, y: 1.5, w: 9, h: 1 })
  const second = deck.addSlide({ masterName: 'TITLED' })
  second.addText('仕様', { placeholder: 'title' })
  second.addTable(
    [
      [{ text: '項目' }, { text: '値' }],
      [{ text: '重さ' }, { text: '1.2 kg' }],
      [{ text: '色温度' }, { text: '2700K〜6500K' }],
    ],
    { x: 0.5, y: 1.5, w: 9 },
  )
  const third = deck.addSlide({ masterName: 'TITLED' })
  third.addText('保証', { placeholder: 'title' })
  third.addText('保証期間はお買い上げ日から2年間です。', { x: 0.5, y: 1.5, w: 9, h: 1 })
  third.addNotes('延長保証に加入すると最長5年まで延長できます。')
  return (await deck.write({ outputType: 'nodebuffer' })) as Buffer
}
