// Words so frequent they only add cost to a keyword query: BM25 gives them almost no weight, but
// each one would still pull every chunk that contains it into the candidate set.
export const ENGLISH_STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'may might me my no not of on or our she should so than that the their them then there these they this ' +
    'those to was we were what when where which who whom why will with would you your he his her him'
  ).split(' '),
)

// Particles, auxiliaries and punctuation-like tokens that ICU segmentation emits for Japanese.
export const JAPANESE_STOPWORDS = new Set(
  (
    'の に は を た が で て と し れ さ ある いる も する から な こと として い や れる など なっ ない この ため ' +
    'その あっ よう また もの という あり まで られ なる へ か だ これ によって により おり より による ず なり ' +
    'られる において ば なかっ なく しかし について せ だっ その後 できる それ う ので なお のみ でき き つ ' +
    'における および いう さらに でも ら たり その他 に関する たち ます ん なら に対して 特に せる 及び これら ' +
    'とき では にて ほか ながら うち そして とともに ただし かつて それぞれ または お ほど ものの に対する ' +
    'ほとんど と共に といった です とも ところ ここ 何 誰 どこ いつ どの どれ どう なぜ どんな いくつ'
  ).split(' '),
)
