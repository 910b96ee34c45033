import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startApache } from './apache-server.ts'

export interface WebSiteServer {
  /** The site's address (`http://127.0.0.1:<port>`), its pages at `/…`. */
  url: string
  /** The folder it serves: files written here are the site's pages. */
  root: string
  /** The requests it has answered, oldest first: `GET /a.html 304`. */
  requests(): Promise<string[]>
  close(): Promise<void>
}

/**
 * A static site served by Apache on loopback, as a team's intranet is: index pages, content types
 * from the file names, ETag and Last-Modified on every file (conditional GETs answer 304), and
 * `redirects` (`/from` → a URL). Paths under `…/broken/` answer 500.
 */
export async function startWebSiteServer(
  port: number,
  redirects: Record<string, string> = {},
): Promise<WebSiteServer> {
  const server = await startApache(
    port,
    ['mime', 'dir', 'alias', 'rewrite'],
    // Types of its own (not /etc/mime.types, which a machine may lack): what a site serves.
    (dir, root) => `TypesConfig /dev/null
AddType text/html .html
AddType text/plain .txt
AddType text/markdown .md
AddType text/csv .csv
AddType application/pdf .pdf
AddType application/xml .xml
AddType application/gzip .gz
DocumentRoot ${root}
CustomLog ${dir}/access.log "%r %>s"
DirectoryIndex index.html
FileETag MTime Size
${Object.entries(redirects)
  .map(([from, to]) => `Redirect 302 ${from} ${to}`)
  .join('\n')}
<Directory ${root}>
  Require all granted
  RewriteEngine On
  RewriteRule (^|/)broken(/|$) - [R=500]
</Directory>`,
    (base) => ({ url: `${base}/` }),
  )
  return {
    url: `http://127.0.0.1:${port}`,
    root: server.root,
    requests: async () =>
      (await readFile(join(server.dir, 'access.log'), 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line && !line.startsWith('OPTIONS '))
        .map((line) => line.replace(/ HTTP\/[\d.]+/, '')),
    close: server.close,
  }
}
