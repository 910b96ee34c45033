// The sample product manual: a fictional desk lamp "ルミナ L-200". Its pages become
// data/sample/lumina-guide.pdf; every fact here is something the test questions ask about.

export const PDF_PAGES: { title: string; paragraphs: string[] }[] = [
  {
    title: 'ルミナ L-200 取扱説明書',
    paragraphs: [
      'このたびはLEDデスクライト「ルミナ L-200」をお買い上げいただき、誠にありがとうございます。',
      'ご使用の前にこの取扱説明書をよくお読みのうえ、正しくお使いください。お読みになった後は大切に保管してください。',
      '製品の型番はL-200です。本体の重さは約1.2キログラムです。',
    ],
  },
  {
    title: '安全上のご注意',
    paragraphs: [
      '浴室など湿気の多い場所では使用しないでください。火災や感電の原因になります。',
      '光源を長時間直接見つめないでください。目を傷めるおそれがあります。',
      'お手入れの際は必ず電源プラグをコンセントから抜いてください。',
    ],
  },
  {
    title: '明るさと色温度の調整',
    paragraphs: [
      '明るさは本体のタッチボタンで5段階に調整できます。ボタンを長押しすると色温度が切り替わります。',
      '色温度は2700Kの電球色から6500Kの昼光色まで選べます。読書には5000K前後がおすすめです。',
    ],
  },
  {
    title: '充電とバッテリー',
    paragraphs: [
      '付属のUSB-Cケーブルで充電します。満充電までの時間は約3時間です。',
      'バッテリーは満充電で最大8時間点灯します。充電中は電源ランプがオレンジ色に点灯し、完了すると緑色に変わります。',
    ],
  },
  {
    title: '保証とお問い合わせ',
    paragraphs: [
      '本製品の保証期間はお買い上げ日から2年間です。保証書は販売店で発行された領収書と一緒に保管してください。',
      '修理のご依頼はサポートセンター（電話 0120-000-123、平日9時から18時）までご連絡ください。',
    ],
  },
]

export const DOCX_SECTIONS: { heading: string; level: 1 | 2 | 3; text: string }[] = [
  { heading: 'Release Notes', level: 1, text: 'Firmware updates for the Lumina L-200 desk lamp.' },
  { heading: 'Version 1.2', level: 2, text: 'Adds a sleep timer that turns the lamp off after 30 minutes.' },
  { heading: 'Bug fixes', level: 3, text: 'Fixes flickering at the lowest brightness level.' },
  {
    heading: 'Version 1.1',
    level: 2,
    text: 'ファームウェア1.1では、Bluetoothによるスマートフォン連携に対応しました。',
  },
]
