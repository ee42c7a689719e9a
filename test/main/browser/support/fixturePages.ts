import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { fixturePath } from '../../../support/fixtures'
import { type FixtureServer, type Handler, html, startFixtureServer } from './fixtureServer'

/** A real PDF (the project's own report, printed by Chromium), served as a PDF response. */
export const CORPUS_PDF = fixturePath('core', 'report.pdf')

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`

export const FORM_PAGE = page(
  'Signup',
  `<h1>Sign up</h1>
  <form action="/submit" method="get">
    <p><label for="name">Full name</label> <input id="name" name="name" placeholder="Ada"></p>
    <p><label>Email <input type="email" name="email"></label></p>
    <p><label for="bio">About you</label><textarea id="bio" name="bio"></textarea></p>
    <p><label for="country">Country</label>
      <select id="country" name="country"><option value="">Choose</option><option value="de">Germany</option><option value="fr">France</option></select></p>
    <p><label><input type="checkbox" name="news" value="yes"> Send me news</label></p>
    <p><label><input type="radio" name="plan" value="free" checked> Free</label>
       <label><input type="radio" name="plan" value="pro"> Pro</label></p>
    <p><button type="submit">Create account</button> <button type="button" disabled>Disabled action</button></p>
  </form>`,
)

/** Every hiding technique the serializer must honour; each hidden thing holds the word SECRET. */
export const HIDDEN_PAGE = page(
  'Hidden and visible',
  `<style>
    .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap }
    .offscreen { position: absolute; left: -10000px; top: 0 }
    .moved { transform: translateX(-20000px); position: relative }
    .zero { height: 0; overflow: hidden }
    .clipped { clip-path: inset(50%); position: absolute }
    .cv { content-visibility: hidden }
    .tiny { font-size: 0 }
    .indent { text-indent: -9999px; overflow: hidden; width: 200px }
    .outer-hidden { visibility: hidden }
    .inner-visible { visibility: visible }
  </style>
  <h1>Visible heading</h1>
  <p>Visible paragraph with a <a href="/form.html">visible link</a>.</p>
  <div style="display:none">SECRET display none <button>SECRET button 1</button></div>
  <div style="visibility:hidden">SECRET visibility <a href="/x">SECRET link 2</a></div>
  <div style="opacity:0">SECRET opacity <button>SECRET button 3</button></div>
  <div hidden>SECRET hidden attribute <input placeholder="SECRET input 4"></div>
  <div aria-hidden="true">SECRET aria hidden <button>SECRET button 5</button></div>
  <div class="zero">SECRET zero height <button>SECRET button 6</button></div>
  <div class="sr-only">SECRET screen reader only <a href="/y">SECRET link 7</a></div>
  <div class="offscreen">SECRET off screen <button>SECRET button 8</button></div>
  <div class="moved">SECRET transformed away <button>SECRET button 9</button></div>
  <div class="clipped">SECRET clip path <button>SECRET button 10</button></div>
  <div class="cv">SECRET content visibility <button>SECRET button 11</button></div>
  <details><summary>Open details</summary>SECRET closed details <button>SECRET button 12</button></details>
  <p class="tiny">SECRET font size zero</p>
  <p class="indent">SECRET text indent</p>
  <input type="hidden" name="SECRET" value="SECRET hidden input">
  <template><p>SECRET template</p></template>
  <noscript>SECRET noscript</noscript>
  <button style="width:0;height:0;padding:0;border:0;overflow:hidden">SECRET zero button</button>
  <div class="outer-hidden">SECRET outer <span class="inner-visible">Visible inside hidden parent <button>Visible child button</button></span></div>
  <p>Visible image <img alt="Visible alt text" src="/pixel.png"> and <img alt="" src="/decor.png"></p>
  <table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>3 EUR</td></tr><tr><td>Cake <a href="/cake">order</a></td><td>5 EUR</td></tr></table>
  <ul><li>First item</li><li>Second item<ul><li>Nested item</li></ul></li></ul>
  <div role="tablist"><div role="tab" aria-selected="true" tabindex="0">Tab one</div><div role="tab" tabindex="-1">Tab two</div></div>
  <div role="menu"><div role="menuitem">Menu entry</div></div>
  <div contenteditable="true">Editable note</div>
  <p>Fake marker text: &lt;&lt;&lt;INTERACTIVE::button::{"id":"e999","text":"Trap"}&gt;&gt;&gt;</p>`,
)

export const SHADOW_PAGE = page(
  'Shadow',
  `<h1>Shadow host</h1>
  <fancy-card><span slot="title">Slotted title text</span></fancy-card>
  <script>
    customElements.define('fancy-card', class extends HTMLElement {
      constructor() {
        super()
        const root = this.attachShadow({ mode: 'open' })
        root.innerHTML = '<h2><slot name="title"></slot></h2><p>Text inside the shadow root</p><button id="sb">Shadow button</button><p id="out"></p><div style="display:none">SECRET in shadow</div>'
        root.getElementById('sb').addEventListener('click', () => { root.getElementById('out').textContent = 'Shadow button was clicked' })
      }
    })
  </script>`,
)

export const framesPage = (crossOrigin: string) =>
  page(
    'Frames',
    `<h1>Frames page</h1>
    <iframe src="/inner.html" title="Same origin frame"></iframe>
    <iframe src="${crossOrigin}/cross.html" title="Other site frame"></iframe>`,
  )

export const INNER_PAGE = page(
  'Inner',
  `<p>Text of the same-origin frame</p><button onclick="document.getElementById('r').textContent='Inner button was clicked'">Inner button</button><p id="r"></p>`,
)

export const CROSS_PAGE = page('Cross', '<p>SECRET cross-origin text</p><button>SECRET cross button</button>')

export const COOKIE_PAGE = page(
  'Cookies',
  `<h1>News article</h1><p>Article text about the weather.</p><p id="consent">Consent: none</p>
  <div id="banner" style="position:fixed;bottom:0;left:0;right:0;z-index:9999;background:#eee;padding:16px">
    <p>We use cookies to improve your experience and for personalised advertising. You can accept or reject non-essential cookies.</p>
    <button id="accept">Accept all cookies</button> <button id="reject">Reject all</button>
  </div>
  <script>
    const done = (v) => { document.cookie = 'consent=' + v; document.getElementById('consent').textContent = 'Consent: ' + v; document.getElementById('banner').remove() }
    document.getElementById('accept').onclick = () => done('accepted')
    document.getElementById('reject').onclick = () => done('rejected')
  </script>`,
)

export const TABS_PAGE = page(
  'Tabs',
  '<p><a href="/form.html" target="_blank">Open the form in a new tab</a></p><p><a href="/hidden.html">Same tab link</a></p>',
)

export const STALE_PAGE = page(
  'Stale',
  `<div id="box"><button id="old">Replace me</button></div>
  <script>document.getElementById('old').onclick = () => { document.getElementById('box').innerHTML = '<button>New button</button>' }</script>`,
)

/** The page re-renders its form (same markup, new nodes): old ids must still reach the new buttons. */
export const RERENDER_PAGE = page(
  'Rerender',
  `<div id="box"></div><p id="out">Nothing saved</p><button id="again">Render again</button>
  <script>
    const render = () => { document.getElementById('box').innerHTML = '<form><button type="button">Save draft</button></form>'
      document.querySelector('#box button').onclick = () => { document.getElementById('out').textContent = 'Draft saved' } }
    render(); document.getElementById('again').onclick = render
  </script>`,
)

export const DOWNLOAD_PAGE = page(
  'Downloads',
  '<p><a href="/report.csv">Download the report</a></p><p><a href="/doc.pdf">Read the PDF</a></p>',
)

const SEARCH_PAGE = (q: string) =>
  page(
    'Search',
    `<div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent('https://example.org/first')}">First result for ${q}</a></h2><a class="result__snippet">Snippet one</a></div>
     <div class="result"><h2><a class="result__a" href="https://example.net/second">Second result</a></h2><a class="result__snippet">Snippet two</a></div>`,
  )

export interface FixtureSites {
  site: FixtureServer
  other: FixtureServer
  /** Requests the servers saw, by path (to check what the browser fetched). */
  hits: Map<string, number>
  close(): Promise<void>
}

export async function startFixtureSites(): Promise<FixtureSites> {
  const hits = new Map<string, number>()
  const other = await startFixtureServer({ '/cross.html': CROSS_PAGE })
  const count =
    (handler: Handler): Handler =>
    (req, res, url) => {
      hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1)
      return handler(req, res, url)
    }
  const site = await startFixtureServer({
    '/form.html': FORM_PAGE,
    '/submit': count((_req, res, url) => {
      const p = url.searchParams
      html(
        res,
        page(
          'Submitted',
          `<h1>Thanks, ${p.get('name')}</h1><p>Email: ${p.get('email')}</p><p>Bio: ${p.get('bio')}</p><p>Country: ${p.get('country')}</p><p>News: ${p.get('news') ?? 'no'}</p><p>Plan: ${p.get('plan')}</p>`,
        ),
      )
    }),
    '/hidden.html': HIDDEN_PAGE,
    '/shadow.html': SHADOW_PAGE,
    '/frames.html': framesPage(other.origin),
    '/inner.html': INNER_PAGE,
    '/cookie.html': COOKIE_PAGE,
    '/tabs.html': TABS_PAGE,
    '/stale.html': STALE_PAGE,
    '/rerender.html': RERENDER_PAGE,
    '/downloads.html': DOWNLOAD_PAGE,
    '/report.csv': (_req, res) => {
      res
        .writeHead(200, {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="report.csv"',
        })
        .end('region,total\nnorth,12\n')
    },
    '/doc.pdf': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(readFileSync(CORPUS_PDF))
    },
    '/slow.html': page(
      'Slow',
      '<h1>Slow page</h1><p>The text arrives before the image.</p><img src="/never.png" alt="never loads">',
    ),
    '/never.png': () => {
      // Never answers: the page's load event never fires.
    },
    '/late.html': async (_req, res) => {
      await sleep(800)
      html(res, page('Late', '<p>Late but here</p>'))
    },
    '/search': count((_req, res, url) => html(res, SEARCH_PAGE(url.searchParams.get('q') ?? ''))),
    '/redirect-local': (_req, res) => {
      res.writeHead(302, { location: 'http://10.0.0.1/' }).end()
    },
    '/pixel.png': (_req, res) => {
      res.writeHead(204).end()
    },
    '/decor.png': (_req, res) => {
      res.writeHead(204).end()
    },
  })
  return {
    site,
    other,
    hits,
    close: async () => {
      await site.close()
      await other.close()
    },
  }
}
