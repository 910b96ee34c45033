import type * as cheerio from 'cheerio'
import type { AnyNode, Element } from 'domhandler'

// Site chrome beside the content, dropped when the page does not mark its main content.
const SIDEBARS = 'aside, [role="complementary"]'

// What sites name their chrome in class and id, where they do not use <nav>, <header> or <aside>
// (most intranets and older or Japanese sites: `#gnav`, `.l-header`, `#side`, `.topicPath`).
// A name's words (split at separators and case changes) or the whole name (separators dropped).
const CHROME_WORDS = new Set([
  'nav',
  'navi',
  'navigation',
  'navbar',
  'gnav',
  'gnavi',
  'lnav',
  'snav',
  'breadcrumb',
  'breadcrumbs',
  'pankuzu',
  'sidebar',
  'sidemenu',
  'header',
  'footer',
  'masthead',
  'colophon',
  'pagetop',
  'menu',
  'menubar',
  'banner',
  'widget',
  'widgets',
  'sns',
])
const CHROME_NAMES = new Set([
  'topicpath',
  'side',
  'sidecolumn',
  'sidearea',
  'sub',
  'subcolumn',
  'subarea',
  'subcontent',
  'subcontents',
  'secondary',
  'globalnav',
  'localnav',
  'relatedlinks',
  'skiplink',
  'skiplinks',
  'share',
  'sharebuttons',
  'sharelinks',
  'socialshare',
  'social',
  'socialbuttons',
])
// Only containers are judged by their names: a table cell or heading named "header" is content.
const CONTAINERS = 'div, section, ul, ol, dl, p, span, table'
/** An element holding more than this share of the page's text is content, whatever its name. */
const MOST_OF_THE_PAGE = 0.5

const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)

/** Whether a class or id names site chrome (`globalNav`, `l-footer`, `side`, `topicPath`). */
export function namesChrome(name: string): boolean {
  const parts = words(name)
  return parts.some((part) => CHROME_WORDS.has(part)) || CHROME_NAMES.has(parts.join(''))
}

const textLength = ($: cheerio.CheerioAPI, node: AnyNode) => $(node).text().replace(/\s+/g, '').length

/** Removes, under `root`, the containers whose class or id names chrome and that hold less than most of its text. */
function removeNamedChrome($: cheerio.CheerioAPI, root: AnyNode) {
  const total = textLength($, root)
  $(root)
    .find(CONTAINERS)
    .filter((_, element: Element) => {
      const names = [element.attribs.id ?? '', ...(element.attribs.class ?? '').split(/\s+/)]
      return names.some((name) => name !== '' && namesChrome(name))
    })
    .each((_, element) => {
      if (textLength($, element) <= total * MOST_OF_THE_PAGE) $(element).remove()
    })
}

/**
 * The page's main content: what it marks as such (`<main>`, role="main", a single `<article>`),
 * else its body without sidebars; in both, without the containers whose class or id names site
 * chrome (menus, breadcrumbs, headers, footers, side columns) unless they hold most of its text.
 * A site's pages share their chrome; indexed, it would match every question about the site.
 */
export function mainContent($: cheerio.CheerioAPI): AnyNode | undefined {
  const marked =
    $('main, [role="main"]').first()[0] ?? ($('article').length === 1 ? $('article')[0] : undefined)
  if (!marked) $(SIDEBARS).remove()
  const root = marked ?? $('body')[0] ?? $.root()[0]
  if (root) removeNamedChrome($, root)
  return root
}
