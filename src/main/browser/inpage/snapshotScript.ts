import type { InteractiveKind, SnapshotElement, SnapshotOptions, SnapshotResult } from './snapshotTypes'

/**
 * Runs inside the page (serialized by Playwright, so it must not reference anything outside its body).
 * One walk over the composed tree: skips what a person cannot see, writes the rest as compact Markdown,
 * and writes each visible interactive element inline as `<<<INTERACTIVE::kind::{json}>>>`. Element ids
 * live in a registry on the top window (a WeakMap, so the DOM is not touched) and stay stable across reads.
 */
export function snapshotPage(options: SnapshotOptions): SnapshotResult {
  type Registry = {
    ids: WeakMap<Element, string>
    refs: Map<string, WeakRef<Element>>
    next: number
    /** Where each id's element was and what it said: a re-rendered twin at the same place keeps the id. */
    places?: Map<string, { id: string; text: string }>
  }
  type Ctx = {
    frames: string[]
    /** Text directly inside this element is visible (visibility, font-size, text-indent). */
    textVisible: boolean
    pre: boolean
    /** Inside a table cell or an interactive element: blocks flatten to spaces. */
    flat: boolean
    /** Inside a data-table cell: pipes are escaped. */
    cell: boolean
    /** Inside an interactive element: nested interactive markers go here instead of inline. */
    trailing: string[] | null
    list: number
    win: Window
  }

  const started = performance.now()
  const KEY = Symbol.for('bureau.elements')
  const holder = window as unknown as Record<symbol, Registry | undefined>
  let registry = holder[KEY]
  if (!registry) {
    registry = { ids: new WeakMap(), refs: new Map(), next: options.nextId }
    Object.defineProperty(window, KEY, { value: registry, enumerable: false, configurable: true })
  }
  if (registry.next < options.nextId) registry.next = options.nextId
  for (const [id, ref] of registry.refs) if (!ref.deref()?.isConnected) registry.refs.delete(id)

  const elements: SnapshotElement[] = []
  let crossOriginFrames = 0
  let cut = false
  const here = location

  const SKIP = new Set([
    'SCRIPT',
    'STYLE',
    'NOSCRIPT',
    'TEMPLATE',
    'HEAD',
    'META',
    'LINK',
    'TITLE',
    'BASE',
    'svg',
    'SVG',
    'CANVAS',
    'OBJECT',
    'EMBED',
    'PARAM',
    'SOURCE',
    'TRACK',
    'MAP',
    'AREA',
    'DATALIST',
    'OPTION',
    'OPTGROUP',
  ])
  const TRACKING =
    /^(utm_\w+|iid|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|ns_\w+|cmpid|ocid|_ga|yclid|igshid|ref_src|ref_url|smid|smtyp)$/i
  const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image'])
  const ROLE_KINDS: Record<string, InteractiveKind> = {
    button: 'button',
    link: 'link',
    tab: 'tab',
    menuitem: 'menuitem',
    menuitemcheckbox: 'menuitem',
    menuitemradio: 'menuitem',
    checkbox: 'checkbox',
    switch: 'checkbox',
    radio: 'radio',
    textbox: 'input',
    searchbox: 'input',
    combobox: 'input',
  }

  /** Page text may not forge our markers or the untrusted-content frame. */
  function clean(text: string): string {
    return text.replace(/<<</g, '‹<<').replace(/>>>/g, '>>›')
  }

  function squash(text: string): string {
    return text.replace(/\s+/g, ' ').trim()
  }

  function clip(text: string, max: number): string {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text
  }

  // Paths are memoised per element and sibling positions per parent: long lists stay linear.
  const paths = new Map<Element, string>()
  const positions = new Map<Element, number>()
  function positionOf(node: Element): number {
    const known = positions.get(node)
    if (known !== undefined) return known
    const parent = node.parentElement
    if (!parent) return 1
    const counts: Record<string, number> = {}
    for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
      const n = (counts[child.localName] ?? 0) + 1
      counts[child.localName] = n
      positions.set(child, n)
    }
    return positions.get(node) ?? 1
  }
  /** XPath inside the element's own document; null inside a shadow root (XPath cannot cross it). */
  function xpathOf(el: Element): string | null {
    if (el.getRootNode() !== el.ownerDocument) return null
    const known = paths.get(el)
    if (known) return known
    const parent = el.parentElement
    const path = `${parent ? xpathOf(parent) : ''}/${el.localName}[${positionOf(el)}]`
    paths.set(el, path)
    return path
  }

  function kindOf(el: Element): InteractiveKind | null {
    const role = el.getAttribute('role')
    if (role && ROLE_KINDS[role]) {
      const native = el.tagName
      if (!(native === 'INPUT' || native === 'SELECT' || native === 'TEXTAREA'))
        return ROLE_KINDS[role] ?? null
    }
    switch (el.tagName) {
      case 'A':
        return el.hasAttribute('href') ? 'link' : el.hasAttribute('onclick') ? 'button' : null
      case 'BUTTON':
      case 'SUMMARY':
        return 'button'
      case 'SELECT':
        return 'select'
      case 'TEXTAREA':
        return 'textarea'
      case 'INPUT': {
        const type = (el as HTMLInputElement).type
        if (type === 'hidden') return null
        if (type === 'checkbox') return 'checkbox'
        if (type === 'radio') return 'radio'
        if (BUTTON_INPUTS.has(type)) return 'button'
        return 'input'
      }
    }
    if ((el as HTMLElement).isContentEditable && !el.parentElement?.isContentEditable)
      return 'contenteditable'
    if (el.hasAttribute('onclick')) return 'button'
    return null
  }

  function idFor(el: Element, place: string | null, text: string): string {
    const reg = registry as Registry
    reg.places ??= new Map()
    let id = reg.ids.get(el)
    if (!id && place) {
      // The page replaced the element with an equal one (same XPath, kind and text): same id.
      const before = reg.places.get(place)
      const previous = before ? reg.refs.get(before.id)?.deref() : undefined
      if (before && before.text === text && !previous?.isConnected) id = before.id
    }
    if (!id) id = `e${reg.next++}`
    reg.ids.set(el, id)
    reg.refs.set(id, new WeakRef(el))
    if (place) reg.places.set(place, { id, text })
    return id
  }

  function textOf(node: Node): string {
    // Label and fallback text: the node's text without the text of form controls inside it.
    let text = ''
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT)
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const parent = t.parentElement
      if (parent && (parent.closest('select,textarea,script,style') || parent.closest('[hidden]'))) continue
      text += t.nodeValue
    }
    return squash(text)
  }

  function labelOf(el: Element): string {
    const aria = el.getAttribute('aria-label')
    if (aria?.trim()) return squash(aria)
    const labelledBy = el.getAttribute('aria-labelledby')
    if (labelledBy) {
      const doc = el.ownerDocument
      const text = labelledBy
        .split(/\s+/)
        .map((ref) => {
          const target = doc.getElementById(ref)
          return target ? textOf(target) : ''
        })
        .join(' ')
      if (text.trim()) return squash(text)
    }
    const labels = (el as HTMLInputElement).labels
    if (labels && labels.length > 0) {
      const text = Array.from(labels)
        .map((label) => textOf(label))
        .join(' ')
      if (text) return text
    }
    return squash(el.getAttribute('title') ?? '')
  }

  function shortHref(el: Element): string | undefined {
    const raw = (el as HTMLAnchorElement).href
    if (!raw || typeof raw !== 'string' || raw.startsWith('javascript:')) return undefined
    let href = raw
    try {
      const url = new URL(raw)
      // Tracking parameters say nothing about where a link goes.
      for (const key of [...url.searchParams.keys()]) if (TRACKING.test(key)) url.searchParams.delete(key)
      href = url.href
      if (url.origin === here.origin) {
        href = url.pathname + url.search + url.hash
        // A jump within this page (citations, "skip to content") says nothing the text does not.
        if (url.pathname === here.pathname && url.search === here.search) return undefined
      }
    } catch {
      return undefined
    }
    return clip(href, options.maxHref)
  }

  function disabled(el: Element): boolean {
    return el.getAttribute('aria-disabled') === 'true' || el.matches(':disabled')
  }

  function marker(el: Element, kind: InteractiveKind, inner: string, ctx: Ctx): string {
    const data: Record<string, unknown> = { id: '' }
    const state: Record<string, boolean> = {}
    let text = squash(inner)
    if (kind === 'input' || kind === 'textarea') {
      const input = el as HTMLInputElement
      const type = input.type
      if (kind === 'input' && type && type !== 'text' && el.tagName === 'INPUT') data.type = type
      const label = labelOf(el)
      if (label) data.label = clean(clip(label, 120))
      const value = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? input.value : textOf(el)
      if (value) data.value = type === 'password' ? '••••' : clean(clip(value, 300))
      const placeholder = el.getAttribute('placeholder')
      if (placeholder) data.placeholder = clean(clip(squash(placeholder), 120))
      if ((el as HTMLInputElement).readOnly) state.readonly = true
      if ((el as HTMLInputElement).required) state.required = true
      text = ''
    } else if (kind === 'select') {
      const select = el as HTMLSelectElement
      const label = labelOf(el)
      if (label) data.label = clean(clip(label, 120))
      const all = Array.from(select.options)
      const names = all.slice(0, options.maxOptions).map((o) => clean(clip(squash(o.text), 80)))
      if (all.length > options.maxOptions) names.push(`+${all.length - options.maxOptions} more`)
      data.options = names
      const chosen = all.filter((o) => o.selected).map((o) => clean(clip(squash(o.text), 80)))
      data.value = select.multiple ? chosen : (chosen[0] ?? '')
      if (select.multiple) state.multiple = true
      text = ''
    } else if (kind === 'checkbox' || kind === 'radio') {
      const label = labelOf(el) || text
      if (label) data.label = clean(clip(label, 120))
      const checked =
        el.tagName === 'INPUT' ? (el as HTMLInputElement).checked : el.getAttribute('aria-checked') === 'true'
      state.checked = checked
      text = ''
    } else if (kind === 'contenteditable') {
      const label = labelOf(el)
      if (label) data.label = clean(clip(label, 120))
      text = clip(text, 300)
    } else {
      if (!text) {
        const input = el as HTMLInputElement
        text =
          labelOf(el) ||
          (el.tagName === 'INPUT' ? squash(input.value || input.alt || '') : '') ||
          squash(el.querySelector('img[alt]')?.getAttribute('alt') ?? '') ||
          squash(el.querySelector('svg title')?.textContent ?? '')
      }
      text = clip(text, 200)
    }
    if (text) data.text = clean(text)
    if (kind === 'link') {
      const href = shortHref(el)
      if (href) data.href = clean(href)
    }
    if (kind === 'tab' || el.getAttribute('aria-selected') === 'true') {
      if (el.getAttribute('aria-selected') === 'true') state.selected = true
    }
    const expanded = el.getAttribute('aria-expanded')
    if (expanded === 'true' || expanded === 'false') state.expanded = expanded === 'true'
    if (disabled(el)) state.enabled = false
    if (Object.keys(state).length > 0) data.state = state
    const path = xpathOf(el)
    const frameKey = ctx.frames.join('|')
    const id = idFor(
      el,
      path ? `${frameKey}${path}#${kind}` : null,
      typeof data.text === 'string' ? data.text : '',
    )
    data.id = id
    if (options.includePaths && path) data.path = path
    elements.push({
      id,
      kind,
      text: typeof data.text === 'string' ? data.text : '',
      path,
      frames: ctx.frames,
    })
    return `<<<INTERACTIVE::${kind}::${JSON.stringify(data)}>>>`
  }

  /** 'subtree' hides the element and everything in it; null keeps it (visibility is checked per text). */
  function hidden(el: Element, cs: CSSStyleDeclaration, interactive: boolean): boolean {
    if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true
    if (cs.display === 'none' || cs.getPropertyValue('content-visibility') === 'hidden') return true
    if (Number.parseFloat(cs.opacity) === 0) return true
    if (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'hidden') return true
    const positioned = cs.position === 'absolute' || cs.position === 'fixed'
    const clipsX = cs.overflowX !== 'visible'
    const clipsY = cs.overflowY !== 'visible'
    const needRect =
      interactive ||
      positioned ||
      clipsX ||
      clipsY ||
      cs.clip !== 'auto' ||
      cs.clipPath !== 'none' ||
      cs.transform !== 'none' ||
      el.tagName === 'IMG' ||
      el.tagName === 'IFRAME'
    if (!needRect) return false
    if (/^inset\((4\d|50|100)%/.test(cs.clipPath) || /^circle\(0/.test(cs.clipPath)) return true
    const rect = el.getBoundingClientRect()
    if (positioned && cs.clip.startsWith('rect') && rect.width <= 1 && rect.height <= 1) return true
    if ((rect.height === 0 && clipsY) || (rect.width === 0 && clipsX)) return true
    if (rect.width === 0 && rect.height === 0 && el.childElementCount === 0 && cs.display !== 'contents')
      return true
    const view = el.ownerDocument.defaultView ?? window
    const right = rect.right + view.scrollX
    const bottom = rect.bottom + view.scrollY
    if ((positioned || cs.transform !== 'none') && (right <= 0 || bottom <= 0)) return true
    const docWidth = el.ownerDocument.documentElement.scrollWidth
    if ((positioned || cs.transform !== 'none') && rect.left + view.scrollX >= docWidth && docWidth > 0)
      return true
    return false
  }

  function isBlock(cs: CSSStyleDeclaration): boolean {
    const d = cs.display
    return !(d.startsWith('inline') || d === 'contents' || d === 'ruby' || d === 'none')
  }

  function join(parts: string[]): string {
    let out = ''
    for (const part of parts) {
      if (!part) continue
      if (out.endsWith(' ') && part.startsWith(' ')) out += part.slice(1)
      else out += part
    }
    return out
  }

  function renderChildren(nodes: ArrayLike<Node>, ctx: Ctx): string {
    const parts: string[] = []
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as Node
      if (node.nodeType === Node.ELEMENT_NODE) parts.push(renderElement(node as Element, ctx))
      else if (node.nodeType === Node.TEXT_NODE) {
        if (!ctx.textVisible) continue
        const value = node.nodeValue ?? ''
        if (ctx.pre) parts.push(clean(value))
        else {
          let text = clean(value.replace(/\s+/g, ' '))
          if (ctx.cell) text = text.replace(/\|/g, '\\|')
          parts.push(text)
        }
      }
      if (performance.now() - started > options.budgetMs) {
        cut = true
        break
      }
    }
    return join(parts)
  }

  function block(inner: string, ctx: Ctx): string {
    const trimmed = inner.trim()
    if (!trimmed) return ''
    return ctx.flat ? ` ${trimmed} ` : `\n\n${trimmed}\n\n`
  }

  function flatten(text: string): string {
    return text.replace(/\s*\n\s*/g, ' ')
  }

  function renderTable(table: HTMLTableElement, ctx: Ctx, inner: () => string): string {
    const rows = Array.from(table.rows)
    const widths = rows.map((row) => row.cells.length)
    const maxCells = Math.max(0, ...widths)
    const hasHeader = table.querySelector('th') !== null || table.tHead !== null
    const dataTable =
      !ctx.flat && maxCells >= 2 && (hasHeader || rows.length >= 2) && !table.querySelector('table')
    if (!dataTable) return block(inner(), ctx)
    const lines: string[] = []
    let columns = 0
    const caption = table.caption
      ? flatten(renderChildren(table.caption.childNodes, { ...ctx, flat: true })).trim()
      : ''
    for (const row of rows) {
      const rowStyle = getComputedStyle(row)
      if (rowStyle.display === 'none' || rowStyle.visibility === 'collapse') continue
      const cells: string[] = []
      for (const cell of Array.from(row.cells)) {
        const cs = getComputedStyle(cell)
        const value = hidden(cell, cs, false)
          ? ''
          : flatten(renderChildren(cell.childNodes, { ...ctx, flat: true, cell: true })).trim()
        cells.push(value)
        for (let span = 1; span < Math.min(cell.colSpan, 20); span++) cells.push('')
      }
      if (cells.some((c) => c !== '')) {
        lines.push(`| ${cells.join(' | ')} |`)
        columns = Math.max(columns, cells.length)
      }
    }
    if (lines.length === 0) return ''
    lines.splice(1, 0, `|${' --- |'.repeat(columns)}`)
    return `\n\n${caption ? `${caption}\n\n` : ''}${lines.join('\n')}\n\n`
  }

  function renderList(el: Element, ctx: Ctx, ordered: boolean): string {
    const items: string[] = []
    let n = ordered ? Number((el as HTMLOListElement).start || 1) : 1
    const indent = ordered ? '   ' : '  '
    for (const child of Array.from(el.children)) {
      // A list item that is itself interactive (role=menuitem, tab...) is rendered as its marker.
      if (child.tagName !== 'LI' || kindOf(child)) {
        const other = renderElement(child, ctx).trim()
        if (other) items.push(other)
        continue
      }
      const cs = getComputedStyle(child)
      if (hidden(child, cs, false)) continue
      const inner = renderChildren(child.childNodes, {
        ...ctx,
        list: ctx.list + 1,
        textVisible: cs.visibility === 'visible',
      })
        .trim()
        .replace(/\n{2,}/g, '\n')
      if (!inner) continue
      const bullet = ordered ? `${n++}. ` : '- '
      items.push(bullet + inner.split('\n').join(`\n${indent}`))
    }
    if (items.length === 0) return ''
    return ctx.flat ? ` ${items.join(' ')} ` : `\n\n${items.join('\n')}\n\n`
  }

  function renderFrame(el: HTMLIFrameElement, ctx: Ctx): string {
    let doc: Document | null = null
    try {
      doc = el.contentDocument
    } catch {
      doc = null
    }
    const name = squash(el.title || el.name || '')
    if (!doc?.body) {
      crossOriginFrames++
      let from = ''
      try {
        from = new URL(el.src, here.href).host
      } catch {
        from = ''
      }
      return block(
        `[frame${name ? ` "${clean(name)}"` : ''}${from ? ` from ${from}` : ''}: cross-origin, not read]`,
        ctx,
      )
    }
    const framePath = xpathOf(el)
    const frames = framePath ? [...ctx.frames, framePath] : ctx.frames
    const inner = renderChildren([doc.body], {
      ...ctx,
      frames,
      win: doc.defaultView ?? ctx.win,
    })
    return block(inner, ctx)
  }

  function renderElement(el: Element, ctx: Ctx): string {
    if (SKIP.has(el.tagName)) return ''
    if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') return ''
    const kind = kindOf(el)
    const view = el.ownerDocument.defaultView ?? ctx.win
    const cs = view.getComputedStyle(el)
    if (hidden(el, cs, kind !== null)) return ''
    const textVisible =
      cs.visibility === 'visible' && cs.fontSize !== '0px' && Number.parseFloat(cs.textIndent) > -999
    const own: Ctx = { ...ctx, textVisible }
    const tag = el.tagName

    if (tag === 'IFRAME' || tag === 'FRAME') return renderFrame(el as HTMLIFrameElement, ctx)

    const shadow = (el as HTMLElement).shadowRoot
    const content = (c: Ctx) => {
      if (shadow) return renderChildren(shadow.childNodes, c)
      if (tag === 'SLOT') {
        const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true })
        return renderChildren(assigned.length > 0 ? assigned : el.childNodes, c)
      }
      if (tag === 'DETAILS' && !(el as HTMLDetailsElement).open) {
        const summary = Array.from(el.children).find((c) => c.tagName === 'SUMMARY')
        return summary ? renderChildren([summary], c) : ''
      }
      return renderChildren(el.childNodes, c)
    }

    if (kind) {
      // Interactive: its text becomes the marker's text; nested controls follow it.
      if (cs.visibility !== 'visible') return content(own)
      const trailing: string[] = []
      const inner =
        kind === 'select' || kind === 'input' || kind === 'textarea'
          ? ''
          : content({ ...own, flat: true, cell: false, trailing, pre: false })
      const out = marker(el, kind, inner.replace(/<<<INTERACTIVE[\s\S]*?>>>/g, ' '), own) + trailing.join('')
      if (ctx.trailing) {
        ctx.trailing.push(out)
        return ''
      }
      return isBlock(cs) && kind !== 'link' ? block(out, ctx) : ` ${out} `
    }

    switch (tag) {
      case 'BR':
        return ctx.flat ? ' ' : '\n'
      case 'HR':
        return ctx.flat ? ' ' : '\n\n---\n\n'
      case 'IMG': {
        const alt = squash(el.getAttribute('alt') ?? '')
        if (!alt || !textVisible) return ''
        const src = el.getAttribute('src') ?? ''
        const keep = src && !src.startsWith('data:') && src.length <= 100 && !ctx.flat
        return keep ? `![${clean(alt)}](${clean(src)})` : ` ${clean(alt)} `
      }
      case 'H1':
      case 'H2':
      case 'H3':
      case 'H4':
      case 'H5':
      case 'H6': {
        const text = flatten(content(own)).trim()
        if (!text) return ''
        if (ctx.flat) return ` ${text} `
        return `\n\n${'#'.repeat(Number(tag[1]))} ${text}\n\n`
      }
      case 'UL':
      case 'OL':
      case 'MENU':
        return renderList(el, own, tag === 'OL')
      case 'TABLE':
        return renderTable(el as HTMLTableElement, own, () => content(own))
      case 'PRE': {
        const text = content({ ...own, pre: true }).replace(/^\n+|\s+$/g, '')
        if (!text) return ''
        return ctx.flat ? ` ${flatten(text)} ` : `\n\n\`\`\`\n${text}\n\`\`\`\n\n`
      }
      case 'CODE':
        if (ctx.pre) return content(own)
        return ` \`${content(own).trim()}\` `
      case 'BLOCKQUOTE': {
        const inner = content(own).trim()
        if (!inner || ctx.flat) return block(inner, ctx)
        return `\n\n${inner
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n')}\n\n`
      }
    }
    const role = el.getAttribute('role')
    if (role === 'heading') {
      const level = Math.min(6, Math.max(1, Number(el.getAttribute('aria-level')) || 2))
      const text = flatten(content(own)).trim()
      return text && !ctx.flat ? `\n\n${'#'.repeat(level)} ${text}\n\n` : text ? ` ${text} ` : ''
    }
    if (role === 'img') {
      const label = squash(el.getAttribute('aria-label') ?? '')
      return label && textVisible ? ` ${clean(label)} ` : ''
    }
    const inner = content(own)
    return isBlock(cs) ? block(inner, ctx) : inner
  }

  /**
   * Anti-flicker snippets (Chartbeat, Google Optimize) hide the whole page with a style until a script
   * shows it; when that script never runs (blocked, broken) the page would read as empty. The reveal is
   * the one the snippet's own timeout makes, and it is taken back after the read.
   */
  function revealHiddenRoot(): () => void {
    const hides = (el: Element | null) => {
      if (!el) return false
      const cs = getComputedStyle(el)
      return cs.visibility !== 'visible' || Number.parseFloat(cs.opacity) === 0
    }
    if (!hides(document.documentElement) && !hides(document.body)) return () => {}
    const style = document.createElement('style')
    style.textContent =
      'html:root, html:root > body { visibility: visible !important; opacity: 1 !important; }'
    ;(document.head ?? document.documentElement).append(style)
    return () => style.remove()
  }

  const root = document.body ?? document.documentElement
  const hideAgain = revealHiddenRoot()
  let raw: string
  try {
    raw = renderChildren([root], {
      frames: [],
      textVisible: true,
      pre: false,
      flat: false,
      cell: false,
      trailing: null,
      list: 0,
      win: window,
    })
  } finally {
    hideAgain()
  }
  const markdown = raw
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n (?=\S)/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return {
    url: here.href,
    title: squash(document.title ?? ''),
    markdown: cut ? `${markdown}\n\n[The page is too large to read at once; the rest was cut.]` : markdown,
    nextId: registry.next,
    elements,
    crossOriginFrames,
    cut,
  }
}
