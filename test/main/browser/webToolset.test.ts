import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { afterAll, it as anyIt, beforeAll, describe, expect } from 'vitest'
import type { DebuggableBrowser } from '../../../src/main/browser/bureauProfile/startDebuggableBrowser'
import { type ApprovalRequest, invoke } from '../../../src/main/tools'
import { describeNeeding } from '../../support/requirements'
import { currentTier, describeWhen, itWhen, type Tier } from '../../support/tier'
import { type FixtureSites, startFixtureSites } from './support/fixturePages'
import {
  find,
  type Harness,
  markers,
  type PageResult,
  startCdpChromium,
  startHarness,
} from './support/harness'

/** The web toolset's tests; `tier` picks which of them this file registers. */
function webToolsetSuite(tier: Tier): void {
  // Two browser launches for the whole file: the bundled-chromium session's, and one Chromium with remote
  // debugging that the cdp-mode sessions attach to and the visibility checker uses too.
  let sites: FixtureSites
  let cdpChromium: DebuggableBrowser
  let cdpDir: string
  beforeAll(async () => {
    sites = await startFixtureSites()
    cdpDir = await mkdtemp(join(tmpdir(), 'bureau-cdp-'))
    cdpChromium = await startCdpChromium(join(cdpDir, 'profile'))
    // Connected before any session attaches: each Playwright client that connects sets where the browser's
    // downloads go, so the checker must not connect after the cdp session (its downloads would land elsewhere).
    checker = chromium.connectOverCDP(cdpChromium.endpoint)
    await checker
  }, 60_000)
  afterAll(async () => {
    await (await checker)?.close()
    await cdpChromium?.stop()
    await sites?.close()
    // Chromium helper processes may still be writing to the profile right after the browser exits.
    await rm(cdpDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  })

  /** The visible interactive elements as Playwright sees them (its own visibility check), by text or label. */
  async function visibleInteractiveTexts(url: string): Promise<string[]> {
    const context = await sharedChecker()
    const page = await context.newPage()
    try {
      await page.goto(url)
      const all = page.locator(
        'a[href], button, summary, input:not([type=hidden]), select, textarea, [role=tab], [role=menuitem], [contenteditable=true]',
      )
      const texts: string[] = []
      for (const handle of await all.all()) {
        if (!(await handle.isVisible())) continue
        const text = await handle.evaluate((el) => {
          const label =
            (el as HTMLInputElement).labels?.[0]?.textContent ?? el.getAttribute('placeholder') ?? ''
          return (el.textContent || label).replace(/\s+/g, ' ').trim()
        })
        texts.push(text)
      }
      return texts
    } finally {
      await context.close()
    }
  }

  let checker: ReturnType<typeof chromium.connectOverCDP> | undefined
  /** A context of its own on the shared cdp Chromium (no extra launch). */
  async function sharedChecker() {
    if (!checker) expect.fail('the checker connects in beforeAll')
    return (await checker).newContext()
  }

  // The two modes run side by side (each has its own session and tabs, so neither sees the other's pages);
  // within a mode the tests run in order on the one session, as a conversation's tool calls do.
  const it = anyIt.sequential

  const itOwn = itWhen(tier === 'fast', it)
  describeNeeding(['chromium'], 'web toolset in Chromium', () => {
    describe.concurrent.each(tier === 'fast' ? (['bundled-chromium', 'cdp'] as const) : (['cdp'] as const))(
      'web toolset in %s mode',
      (mode) => {
        // The fast tier runs the common tests in Bureau's own browser and the ones only the user's browser has;
        // the soak tier runs the common tests again in the user's browser (CDP).
        const itCommon = itWhen((tier === 'fast') === (mode === 'bundled-chromium'), it)
        let h: Harness
        beforeAll(async () => {
          h = await startHarness(
            mode,
            `${sites.site.origin}/search?q={query}`,
            mode === 'cdp' ? { cdpEndpoint: cdpChromium.endpoint } : {},
          )
        }, 60_000)
        afterAll(async () => {
          await h?.close()
        })

        itCommon('fills and submits a form (text, email, textarea, select, checkbox, radio)', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/form.html') })
          expect(view.content).toContain('# Sign up')
          const name = find(view.content, (m) => m.kind === 'input' && m.label === 'Full name')
          expect(name.placeholder).toBe('Ada')
          const email = find(view.content, (m) => m.kind === 'input' && m.label === 'Email')
          const bio = find(view.content, (m) => m.kind === 'textarea')
          const country = find(view.content, (m) => m.kind === 'select')
          expect(country.options).toEqual(['Choose', 'Germany', 'France'])
          const news = find(view.content, (m) => m.kind === 'checkbox')
          expect(news.state).toEqual({ checked: false })
          const pro = find(view.content, (m) => m.kind === 'radio' && m.label === 'Pro')
          const disabled = find(view.content, (m) => m.text === 'Disabled action')
          expect(disabled.state).toEqual({ enabled: false })

          const filled = await h.ok<{ filled: unknown[]; errors: string[] }>('web_fill_fields', {
            fields: {
              [name.id]: 'Ada Lovelace',
              [email.id]: 'ada@example.com',
              [bio.id]: 'Counts things',
              [news.id]: true,
              [pro.id]: true,
            },
          })
          expect(filled.errors).toEqual([])
          expect(filled.filled).toHaveLength(5)
          await h.ok('web_select_option', { id: country.id, values: ['France'] })
          const again = await h.ok<PageResult>('web_read_page')
          // Same elements keep their ids across re-reads, and show their new values.
          expect(find(again.content, (m) => m.id === name.id).value).toBe('Ada Lovelace')
          expect(find(again.content, (m) => m.id === country.id).value).toBe('France')
          expect(find(again.content, (m) => m.id === news.id).state).toEqual({ checked: true })

          const submit = find(again.content, (m) => m.text === 'Create account')
          // The approval gate is told what the click acts on: the page URL and the element as the model saw it.
          const asked: ApprovalRequest[] = []
          const clicked = await invoke(
            h.session,
            'web_click',
            { id: submit.id },
            {
              approve: async (request) => {
                asked.push(request)
                return { allowed: true }
              },
            },
          )
          if (!clicked.ok) expect.fail(clicked.error)
          expect(asked[0]?.target).toEqual([
            { label: 'Page', value: sites.site.url('/form.html') },
            { label: 'Element', value: `button "Create account" (${submit.id})` },
          ])
          const result = clicked.value as PageResult
          expect(result.content).toContain('# Thanks, Ada Lovelace')
          expect(result.content).toContain('Email: ada@example.com')
          expect(result.content).toContain('Country: fr')
          expect(result.content).toContain('News: yes')
          expect(result.content).toContain('Plan: pro')
        })

        itCommon('a select by an unknown option says which options exist', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/form.html') })
          const country = find(view.content, (m) => m.kind === 'select')
          const bad = await h.call('web_select_option', { id: country.id, values: ['Atlantis'] })
          expect(bad.ok).toBe(false)
          if (!bad.ok) expect(bad.error).toContain('has no option "Atlantis"')
        })

        itCommon('never shows hidden elements, and shows every visible interactive element', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/hidden.html') })
          expect(view.content).not.toContain('SECRET')
          expect(view.content).toContain('# Visible heading')
          expect(view.content).toContain('Visible inside hidden parent')
          expect(view.content).toContain('![Visible alt text](/pixel.png)')
          expect(view.content).toContain('| Item | Price |')
          expect(view.content).toContain('| Tea | 3 EUR |')
          expect(view.content).toMatch(/- Second item\n {2}- Nested item/)
          // Page text cannot forge a marker.
          expect(markers(view.content).some((m) => m.id === 'e999')).toBe(false)
          const shown = markers(view.content).map((m) => m.text ?? m.label ?? m.placeholder ?? '')
          const expected = await visibleInteractiveTexts(sites.site.url('/hidden.html'))
          // Playwright counts opacity:0, aria-hidden, clipped and off-screen elements as visible; the
          // serializer hides those too (they hold the word SECRET). Everything else it sees must be there.
          const mustShow = expected.filter((text) => !text.includes('SECRET'))
          expect(mustShow.length).toBeGreaterThanOrEqual(8)
          for (const text of mustShow) expect(shown).toContain(text)
          expect(markers(view.content).map((m) => m.kind)).toEqual(
            expect.arrayContaining(['link', 'button', 'tab', 'menuitem', 'contenteditable']),
          )
          expect(find(view.content, (m) => m.text === 'Tab one').state).toEqual({ selected: true })
        })

        itCommon(
          'reads open shadow roots and same-origin frames, names cross-origin frames, clicks inside both',
          async () => {
            const shadow = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/shadow.html') })
            expect(shadow.content).toContain('## Slotted title text')
            expect(shadow.content).toContain('Text inside the shadow root')
            expect(shadow.content).not.toContain('SECRET')
            const button = find(shadow.content, (m) => m.text === 'Shadow button')
            const clicked = await h.ok<PageResult>('web_click', { id: button.id })
            expect(clicked.content).toContain('Shadow button was clicked')

            const frames = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/frames.html') })
            expect(frames.content).toContain('Text of the same-origin frame')
            expect(frames.content).toContain('[frame "Other site frame" from 127.0.0.1:')
            expect(frames.content).toContain('cross-origin, not read')
            expect(frames.content).not.toContain('SECRET')
            const inner = find(frames.content, (m) => m.text === 'Inner button')
            const after = await h.ok<PageResult>('web_click', { id: inner.id })
            expect(after.content).toContain('Inner button was clicked')
          },
        )

        itCommon('dismisses a cookie banner by refusing before the page is read', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/cookie.html') })
          expect(view.content).toContain('Article text about the weather.')
          expect(view.content).not.toContain('We use cookies')
          expect(view.content).toContain('Consent: rejected')
          expect(view.content).toMatch(/Cookie banner \(.+\): dismissed/)
        })

        itCommon('opens a link in a new tab, lists, switches and closes tabs', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/tabs.html') })
          const link = find(view.content, (m) => m.text === 'Open the form in a new tab')
          const opened = await h.ok<PageResult>('web_click', { id: link.id })
          expect(opened.content).toContain('# Sign up')
          const listed = await h.ok<{ tabs: Array<{ index: number; url: string; active: boolean }> }>(
            'web_tabs',
            {
              action: 'list',
            },
          )
          expect(listed.tabs).toHaveLength(2)
          expect(listed.tabs[1]).toMatchObject({ active: true, url: sites.site.url('/form.html') })
          const switched = await h.ok<{ page: PageResult }>('web_tabs', { action: 'switch', index: 0 })
          expect(switched.page.content).toContain('Open the form in a new tab')
          const created = await h.ok<{ tabs: unknown[]; page: PageResult }>('web_tabs', {
            action: 'new',
            url: sites.site.url('/stale.html'),
          })
          expect(created.tabs).toHaveLength(3)
          expect(created.page.content).toContain('Replace me')
          await h.ok('web_tabs', { action: 'close' })
          await h.ok('web_tabs', { action: 'close', index: 1 })
          const left = await h.ok<{ tabs: Array<{ url: string }> }>('web_tabs', { action: 'list' })
          expect(left.tabs.map((t) => t.url)).toEqual([sites.site.url('/tabs.html')])
          const missing = await h.call('web_tabs', { action: 'switch', index: 7 })
          expect(missing.ok).toBe(false)
        })

        itCommon('keeps ids stable and says when an element is gone', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/stale.html') })
          const old = find(view.content, (m) => m.text === 'Replace me')
          const again = await h.ok<PageResult>('web_read_page')
          expect(find(again.content, (m) => m.text === 'Replace me').id).toBe(old.id)
          const after = await h.ok<PageResult>('web_click', { id: old.id })
          const fresh = find(after.content, (m) => m.text === 'New button')
          expect(fresh.id).not.toBe(old.id)
          const stale = await h.call('web_click', { id: old.id })
          expect(stale.ok).toBe(false)
          if (!stale.ok) expect(stale.error).toContain(`element ${old.id} is gone; read the page again`)
          const never = await h.call('web_click', { id: 'e99999' })
          expect(never.ok).toBe(false)
          if (!never.ok) expect(never.error).toContain('There is no element "e99999"')
        })

        itCommon('finds a re-rendered element again by its XPath when tag and text still match', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/rerender.html') })
          const save = find(view.content, (m) => m.text === 'Save draft')
          const again = find(view.content, (m) => m.text === 'Render again')
          await h.ok('web_click', { id: again.id })
          const clicked = await h.ok<PageResult>('web_click', { id: save.id })
          expect(clicked.content).toContain('Draft saved')
          // The new node took over the id: a fresh read shows the same id.
          expect(find(clicked.content, (m) => m.text === 'Save draft').id).toBe(save.id)
        })

        itCommon(
          'downloads by id and by url into /downloads, and saves screenshots in the workspace',
          async () => {
            const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/downloads.html') })
            const link = find(view.content, (m) => m.text === 'Download the report')
            const first = await h.ok<{ path: string; bytes: number }>('web_download', { id: link.id })
            expect(first.path).toBe('/downloads/report.csv')
            expect(await readFile(await h.workspace.resolve(first.path), 'utf8')).toBe(
              'region,total\nnorth,12\n',
            )
            const second = await h.ok<{ path: string }>('web_download', {
              url: sites.site.url('/report.csv'),
            })
            expect(second.path).toBe('/downloads/report (2).csv')
            const shot = await h.ok<{ path: string; bytes: number }>('web_screenshot', { full_page: true })
            expect(shot.path).toMatch(/^\/screenshots\/page-.+\.png$/)
            const png = await readFile(await h.workspace.resolve(shot.path))
            expect(png.subarray(1, 4).toString()).toBe('PNG')
            expect(shot.bytes).toBe(png.length)
          },
        )

        itCommon('converts a PDF response to Markdown', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/doc.pdf') })
          expect(view.content).toContain('Harbour Street Lantern Works')
          expect(view.content).toContain('A PDF, converted to Markdown.')
        })

        itCommon('returns a slow page once its text is there, and waits for text', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/slow.html') })
          expect(view.content).toContain('The text arrives before the image.')
          const late = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/late.html') })
          expect(late.content).toContain('Late but here')
          const waited = await h.ok<{ found: boolean }>('web_wait_for', { text: 'Late but here' })
          expect(waited.found).toBe(true)
          const missing = await h.call('web_wait_for', { text: 'never shown', timeout: 1 })
          expect(missing.ok).toBe(false)
        })

        itCommon('pages long content and answers a query with the matching sections', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/hidden.html') })
          expect(view.pages).toBe(1)
          const query = await h.ok<PageResult>('web_read_page', { query: 'nested item' })
          expect(query.content).toContain('Nested item')
          expect(query.content).not.toContain('Visible paragraph')
        })

        itCommon('goes back and forward, scrolls and presses keys', async () => {
          await h.ok('web_navigate', { url: sites.site.url('/tabs.html') })
          await h.ok('web_navigate', { url: sites.site.url('/form.html') })
          const back = await h.ok<PageResult>('web_back')
          expect(back.url).toBe(sites.site.url('/tabs.html'))
          const forward = await h.ok<PageResult>('web_forward')
          expect(forward.url).toBe(sites.site.url('/form.html'))
          expect(await h.call('web_forward')).toMatchObject({
            ok: false,
            code: 'NOT_FOUND',
            error: 'web_forward failed: There is no next page in this tab.',
          })
          const scrolled = await h.ok<{ at_end: boolean }>('web_scroll', { direction: 'bottom' })
          expect(scrolled.at_end).toBe(true)
          const name = find(forward.content, (m) => m.label === 'Full name')
          await h.ok('web_fill_fields', { fields: { [name.id]: 'Grace' } })
          const pressed = await h.ok<PageResult>('web_press_key', { key: 'Enter' })
          expect(pressed.content).toContain('# Thanks, Grace')
        })

        itCommon('searches with the configured engine and frames results as untrusted', async () => {
          const found = await h.ok<{ results: Array<{ url: string; title: string }>; content: string }>(
            'web_web_search',
            {
              query: 'bureau tea',
            },
          )
          expect(found.results.map((r) => r.url)).toEqual([
            'https://example.org/first',
            'https://example.net/second',
          ])
          expect(found.content).toContain('1. [First result for bureau tea](https://example.org/first)')
          expect(found.content).toMatch(/^<<<UNTRUSTED_WEB_CONTENT from /)
          expect(sites.hits.get('/search')).toBeGreaterThan(0)
        })

        itCommon('frames every page as untrusted content from its URL', async () => {
          const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/form.html') })
          expect(
            view.content.startsWith(`<<<UNTRUSTED_WEB_CONTENT from ${sites.site.url('/form.html')}`),
          ).toBe(true)
          expect(view.content.trimEnd().endsWith('<<<END_UNTRUSTED_WEB_CONTENT>>>')).toBe(true)
        })

        itCommon('refuses file:, javascript:, data: and browser-internal URLs', async () => {
          for (const url of [
            'file:///etc/passwd',
            'javascript:alert(1)',
            'data:text/html,hi',
            'chrome://settings',
            'edge://flags',
            'about:blank',
          ]) {
            const result = await h.call('web_navigate', { url })
            expect(result.ok, url).toBe(false)
            if (!result.ok) expect(result.code).toBe('FORBIDDEN')
          }
        })

        if (mode === 'cdp') {
          itOwn('leaves the browser it attached to running when the session ends', async () => {
            const probe = await startHarness('cdp', `${sites.site.origin}/search?q={query}`, {
              cdpEndpoint: cdpChromium.endpoint,
            })
            await probe.ok('web_navigate', { url: sites.site.url('/stale.html') })
            await probe.close()
            expect(cdpChromium.process?.exitCode).toBeNull()
            const response = await fetch(`${cdpChromium.endpoint}/json/version`)
            expect(response.ok).toBe(true)
            // The other session on the same browser still works.
            const view = await h.ok<PageResult>('web_navigate', { url: sites.site.url('/form.html') })
            expect(view.content).toContain('# Sign up')
          })
        }
      },
    )

    describeWhen(tier === 'fast')('URL guard without local network access', () => {
      let h: Harness
      beforeAll(async () => {
        h = await startHarness('bundled-chromium', `${sites.site.origin}/search?q={query}`, {
          allowLocalNetwork: false,
        })
      }, 60_000)
      afterAll(async () => {
        await h?.close()
      })

      itOwn('refuses loopback and private addresses before the browser starts', async () => {
        for (const url of [
          sites.site.url('/form.html'),
          'http://localhost:9/',
          'http://10.0.0.1/',
          'http://192.168.1.1/',
          'http://[::1]/',
        ]) {
          const result = await h.call('web_navigate', { url })
          expect(result.ok, url).toBe(false)
          if (!result.ok) {
            expect(result.code).toBe('FORBIDDEN')
            expect(result.error).toContain('Local and private network targets are blocked')
          }
        }
        // Refused before any browser was started for the session.
        expect(h.session.disposed).toBe(false)
      })
    })
  })
}

webToolsetSuite(currentTier())
