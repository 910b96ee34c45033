import { describe, expect, it } from 'vitest'
import { parseHtml } from './parse-html.ts'

const text = (html: string) =>
  parseHtml(new TextEncoder().encode(html), 'page.html')
    .flatMap((section) => [section.heading ?? '', ...section.units])
    .join('\n')

// Pages as sites lay them out without <main>, <nav> or <aside>: the chrome is named in class and id.
describe('the main content of a page whose chrome is named, not marked', () => {
  it('an intranet page of the older kind: #header, #gnav, .topicPath, #side, #pagetop, #footer', () => {
    const page = text(`<html><body><div id="wrapper">
      <div id="header"><p class="logo">アクメ社内ポータル</p><ul id="gnav"><li>お知らせ</li><li>規程集</li><li>申請書</li></ul></div>
      <div class="topicPath"><a href="/">ホーム</a> &gt; 規程集</div>
      <div id="contents">
        <h1>出張旅費規程</h1><p>日当は1日3,000円とする。</p><p>宿泊費は実費とし、上限を12,000円とする。</p>
      </div>
      <div id="side"><h3>関連規程</h3><ul><li>福利厚生規程</li><li>就業規則</li></ul></div>
      <p id="pagetop"><a href="#">ページの先頭へ</a></p>
      <div id="footer">Copyright Acme Corporation</div>
    </div></body></html>`)
    expect(page).toContain('日当は1日3,000円とする。')
    expect(page).toContain('宿泊費は実費とし')
    for (const chrome of [
      'お知らせ',
      '申請書',
      'ホーム',
      '関連規程',
      '福利厚生',
      'ページの先頭へ',
      'Copyright',
    ])
      expect(page).not.toContain(chrome)
  })

  it('a blog theme: .site-header, .main-navigation, #secondary.widget-area, .site-footer', () => {
    const page =
      text(`<body><div class="site-header"><div class="main-navigation"><ul><li>About</li><li>Archives</li></ul></div></div>
      <div id="primary"><h1>Resetting the router</h1><p>Hold the reset button for ten seconds.</p></div>
      <div id="secondary" class="widget-area"><h2>Recent posts</h2><ul><li>Pairing a lamp</li></ul></div>
      <div class="site-footer">Proudly powered by a CMS</div></body>`)
    expect(page).toContain('Hold the reset button for ten seconds.')
    for (const chrome of ['Archives', 'Recent posts', 'Pairing a lamp', 'Proudly powered'])
      expect(page).not.toContain(chrome)
  })

  it('keeps what only looks like chrome: a menu that is the page, a table’s header cells, a heading named header', () => {
    const menu = text(`<body><div class="header">Trattoria</div><div class="menu"><h1>Menu</h1>
      <p>Margherita 1,200 yen</p><p>Marinara 1,000 yen</p><p>Tiramisu 600 yen</p></div></body>`)
    expect(menu).toContain('Margherita 1,200 yen')
    const table =
      text(`<body><h1>Prices</h1><table><tr><th class="header">Plan</th><th class="header">Price</th></tr>
      <tr><td>Basic</td><td>980 yen</td></tr></table><h2 class="section-header">Notes</h2><p>Tax included.</p></body>`)
    expect(table).toContain('Plan: Basic')
    expect(table).toContain('Notes')
    // Words that merely contain a chrome word are not it.
    expect(
      text('<body><div class="subscription-plans"><p>Annual plans save 20%.</p></div><p>x</p></body>'),
    ).toContain('Annual plans save 20%.')
  })

  it('a page that marks its main content loses the breadcrumbs and share buttons inside it', () => {
    const page = text(`<body><main><div class="breadcrumbs">Home / Guides</div><h1>Pairing</h1>
      <p>Press and hold the button until the light blinks.</p><ul class="share-buttons"><li>Tweet</li></ul></main></body>`)
    expect(page).toContain('Press and hold the button')
    for (const chrome of ['Home / Guides', 'Tweet']) expect(page).not.toContain(chrome)
  })
})
