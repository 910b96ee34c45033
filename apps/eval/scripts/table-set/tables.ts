/**
 * The tables of the table-questions set, and how a question asks for each column. Every question
 * names a row (by its first cell) and a column, so only that row, read with its column names,
 * answers it; no value is written anywhere else in the documents.
 */
export interface SetTable {
  caption: string
  header: string[]
  rows: string[][]
  /** Per column after the first: the question asking for it, `{row}` standing for the row's name. */
  asks: string[]
  /** Drawn with lines (ruled) or without (aligned text only); PDFs only. */
  ruled?: boolean
}

export interface SetDocument {
  file: string
  language: 'ja' | 'en'
  title: string
  /** Sections in order: a heading, a paragraph, tables; `page` starts a new PDF page. */
  sections: { heading: string; text: string; tables: SetTable[]; page?: boolean }[]
}

export const DOCUMENTS: SetDocument[] = [
  {
    file: 'price-list.pdf',
    language: 'ja',
    title: 'クラウドストレージ 料金のご案内',
    sections: [
      {
        heading: '第1章 料金プラン',
        text: '各プランの料金と利用できる範囲は次の表のとおりです。表示価格は税抜きです。',
        tables: [
          {
            caption: '料金プラン一覧',
            header: ['プラン', '月額料金', 'ストレージ', '利用人数', 'サポート'],
            rows: [
              ['フリー', '0円', '5GB', '1名', 'コミュニティ'],
              ['ライト', '980円', '100GB', '3名', 'メール'],
              ['ビジネス', '4,800円', '1TB', '20名', 'メール・チャット'],
              ['エンタープライズ', '48,000円', '10TB', '無制限', '電話・専任担当'],
            ],
            asks: [
              '{row}プランの月額料金はいくらですか',
              '{row}プランのストレージ容量は',
              '{row}プランは何人まで使えますか',
              '{row}プランのサポート窓口は何ですか',
            ],
            ruled: true,
          },
        ],
      },
      {
        heading: '第2章 オプション',
        text: 'プランに追加できるオプションです。オプションは月単位で契約できます。',
        page: true,
        tables: [
          {
            caption: 'オプション料金',
            header: ['オプション', '料金', '最低契約期間'],
            rows: [
              ['容量追加', '1TBあたり月額1,200円', '1か月'],
              ['監査ログ保管', '月額3,500円', '6か月'],
              ['シングルサインオン', '月額2,200円', '12か月'],
            ],
            asks: ['{row}オプションの料金は', '{row}オプションの最低契約期間はどれくらいですか'],
          },
        ],
      },
    ],
  },
  {
    file: 'lamp-specs.pdf',
    language: 'en',
    title: 'Lumina desk lamps: specifications',
    sections: [
      {
        heading: '1 Models',
        text: 'The current range of Lumina desk lamps. Figures measured at full brightness.',
        tables: [
          {
            caption: 'Table 1: Lamp specifications',
            header: ['Model', 'Weight', 'Battery life', 'Colour range', 'Price'],
            rows: [
              ['L-100', '0.9 kg', '6 hours', '3000K', '$49'],
              ['L-200', '1.2 kg', '8 hours', '2700K to 6500K', '$79'],
              ['L-300', '1.5 kg', '11 hours', '2200K to 6500K', '$119'],
              ['L-400 Pro', '2.1 kg', '14 hours', '1800K to 7000K', '$189'],
            ],
            asks: [
              'How much does the {row} weigh?',
              'What is the battery life of the {row}?',
              'Which colour temperatures does the {row} cover?',
              'What is the price of the {row}?',
            ],
          },
        ],
      },
      {
        heading: '2 Warranty and service',
        text: 'Service terms differ by region; see the table for the region you bought the lamp in.',
        page: true,
        tables: [
          {
            caption: 'Table 2: Service by region',
            header: ['Region', 'Warranty', 'Repair turnaround', 'Support hours'],
            rows: [
              ['Japan', '2 years', '5 business days', '9:00-18:00 JST'],
              ['European Union', '3 years', '10 business days', '8:00-17:00 CET'],
              ['United States', '1 year', '7 business days', '9:00-20:00 ET'],
            ],
            asks: [
              'How long is the warranty in {row}?',
              'How long does a repair take in {row}?',
              'What are the support hours in {row}?',
            ],
            ruled: true,
          },
        ],
      },
    ],
  },
  {
    file: 'offices.pdf',
    language: 'ja',
    title: '拠点のご案内',
    sections: [
      {
        heading: '国内拠点',
        text: '各拠点の連絡先と受付時間です。祝日は休業します。',
        tables: [
          {
            caption: '拠点一覧',
            header: ['拠点', '所在地', '電話番号', '受付時間'],
            rows: [
              ['札幌支店', '北海道札幌市中央区北一条西4-2', '011-200-3141', '9時〜17時'],
              ['仙台支店', '宮城県仙台市青葉区本町2-8', '022-300-2718', '9時半〜17時半'],
              ['東京本社', '東京都千代田区丸の内1-9', '03-4000-1618', '8時半〜19時'],
              ['名古屋支店', '愛知県名古屋市中村区名駅3-6', '052-500-1414', '9時〜18時'],
              ['福岡支店', '福岡県福岡市博多区博多駅前2-5', '092-600-1732', '10時〜18時'],
            ],
            asks: [
              '{row}の所在地はどこですか',
              '{row}の電話番号を教えてください',
              '{row}の受付時間は何時から何時までですか',
            ],
          },
        ],
      },
    ],
  },
  {
    file: 'shipping.pdf',
    language: 'en',
    title: 'Shipping rates 2026',
    sections: [
      {
        heading: 'Rates by zone',
        text: 'Rates for one parcel up to 5 kg. Heavier parcels are quoted on request.',
        tables: [
          {
            caption: 'Parcel rates',
            header: ['Zone', 'Standard', 'Express', 'Delivery time'],
            rows: [
              ['Domestic', '$6.50', '$14.00', '1-2 days'],
              ['Asia', '$18.40', '$39.90', '3-6 days'],
              ['Europe', '$24.75', '$52.30', '5-9 days'],
              ['Americas', '$27.10', '$58.60', '6-10 days'],
            ],
            asks: [
              'What does standard shipping to {row} cost?',
              'What does express shipping to {row} cost?',
              'How long does delivery to {row} take?',
            ],
            ruled: true,
          },
        ],
      },
    ],
  },
  {
    file: 'leave-policy.pdf',
    language: 'ja',
    title: '休暇規程',
    sections: [
      {
        heading: '第3章 休暇',
        text: '特別休暇の日数と申請の期限は次のとおりとする。',
        tables: [
          {
            caption: '特別休暇',
            header: ['休暇の種類', '日数', '申請期限', '給与'],
            rows: [
              ['結婚休暇', '5日', '2週間前まで', '有給'],
              ['忌引休暇', '最大7日', '事後3日以内', '有給'],
              ['リフレッシュ休暇', '10日', '1か月前まで', '有給'],
              ['ボランティア休暇', '3日', '1週間前まで', '無給'],
            ],
            asks: ['{row}は何日取れますか', '{row}の申請期限はいつですか', '{row}の間の給与はどうなりますか'],
          },
        ],
      },
    ],
  },
  {
    file: 'expenses.docx',
    language: 'ja',
    title: '出張旅費規程',
    sections: [
      {
        heading: '日当と宿泊料',
        text: '出張者の役職に応じて次の額を支給する。',
        tables: [
          {
            caption: '役職別の支給額',
            header: ['役職', '日当', '宿泊料上限', '航空機の座席'],
            rows: [
              ['一般社員', '2,000円', '10,000円', 'エコノミー'],
              ['課長', '2,600円', '12,500円', 'プレミアムエコノミー'],
              ['部長', '3,200円', '15,000円', 'ビジネス'],
              ['役員', '4,500円', '22,000円', 'ファースト'],
            ],
            asks: [
              '{row}の日当はいくらですか',
              '{row}の宿泊料の上限は',
              '{row}は航空機のどの座席を使えますか',
            ],
          },
        ],
      },
    ],
  },
  {
    file: 'support-sla.docx',
    language: 'en',
    title: 'Support service levels',
    sections: [
      {
        heading: 'Response targets',
        text: 'Targets apply to tickets opened through the support portal.',
        tables: [
          {
            caption: 'Targets by severity',
            header: ['Severity', 'First response', 'Update interval', 'Resolution target'],
            rows: [
              ['Critical', '30 minutes', 'every 2 hours', '1 day'],
              ['High', '4 hours', 'every 8 hours', '3 days'],
              ['Medium', '1 business day', 'every 2 business days', '10 days'],
              ['Low', '3 business days', 'weekly', '30 days'],
            ],
            asks: [
              'What is the first response time for a {row} ticket?',
              'How often is a {row} ticket updated?',
              'What is the resolution target for a {row} ticket?',
            ],
          },
        ],
      },
    ],
  },
  {
    file: 'product-comparison.pptx',
    language: 'ja',
    title: '製品比較',
    sections: [
      {
        heading: 'ロボット掃除機の比較',
        text: '',
        tables: [
          {
            caption: '',
            header: ['機種', '連続運転時間', 'ダストボックス', '騒音'],
            rows: [
              ['クリーナ S1', '90分', '0.3L', '58dB'],
              ['クリーナ S2', '120分', '0.45L', '55dB'],
              ['クリーナ S3 プロ', '180分', '0.6L', '49dB'],
            ],
            asks: ['{row}の連続運転時間は', '{row}のダストボックスの容量は', '{row}の騒音は何デシベルですか'],
          },
        ],
      },
    ],
  },
  {
    file: 'roadmap.pptx',
    language: 'en',
    title: 'Product roadmap',
    sections: [
      {
        heading: 'Release plan 2027',
        text: '',
        tables: [
          {
            caption: '',
            header: ['Quarter', 'Headline feature', 'Owner', 'Status'],
            rows: [
              ['Q1 2027', 'Offline sync', 'Mobile team', 'In design'],
              ['Q2 2027', 'Audit exports', 'Platform team', 'Scheduled'],
              ['Q3 2027', 'Team workspaces', 'Web team', 'Exploring'],
            ],
            asks: [
              'What is the headline feature of {row}?',
              'Which team owns the {row} release?',
              'What is the status of the {row} release?',
            ],
          },
        ],
      },
    ],
  },
  {
    file: 'api-limits.html',
    language: 'en',
    title: 'API rate limits',
    sections: [
      {
        heading: 'Limits per plan',
        text: 'Requests over the limit receive HTTP 429 and may be retried after the window resets.',
        tables: [
          {
            caption: 'Rate limits',
            header: ['Plan', 'Requests per minute', 'Burst', 'Max payload'],
            rows: [
              ['Starter', '60', '10', '1 MB'],
              ['Growth', '600', '100', '8 MB'],
              ['Scale', '6,000', '1,000', '32 MB'],
            ],
            asks: [
              'How many requests per minute does the {row} plan allow?',
              'What burst does the {row} plan allow?',
              'What is the maximum payload on the {row} plan?',
            ],
          },
        ],
      },
    ],
  },
  {
    file: 'training.html',
    language: 'ja',
    title: '社内研修のご案内',
    sections: [
      {
        heading: '研修日程',
        text: '受講を希望する人は上長の承認を得て申し込んでください。',
        tables: [
          {
            caption: '研修一覧',
            header: ['研修名', '開催日', '会場', '定員'],
            rows: [
              ['新任管理職研修', '4月14日', '本社12階大会議室', '24名'],
              ['情報セキュリティ研修', '5月9日', 'オンライン', '300名'],
              ['プレゼンテーション研修', '6月20日', '大阪研修センター', '16名'],
              ['コンプライアンス研修', '7月3日', '名古屋支店会議室B', '40名'],
            ],
            asks: ['{row}はいつ開催されますか', '{row}の会場はどこですか', '{row}の定員は何名ですか'],
          },
        ],
      },
    ],
  },
]
