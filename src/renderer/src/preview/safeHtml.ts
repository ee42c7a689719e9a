import DOMPurify from 'dompurify'

/**
 * The policy of the frame a document or mail is shown in: no script at all, nothing fetched from
 * anywhere (pictures only from `data:`), inline styles allowed. The frame is also sandboxed without
 * `allow-scripts`, so even markup the sanitiser missed cannot run.
 */
const FRAME_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:"

const FRAME_STYLE = `
  :root { color-scheme: light; }
  body { font: 14px/1.5 system-ui, sans-serif; margin: 16px; color: #1b1b1f; background: #ffffff; overflow-wrap: anywhere; }
  img { max-width: 100%; height: auto; }
  table { border-collapse: collapse; }
  td, th { border: 1px solid #c8c8d0; padding: 2px 6px; }
  .blocked-image { display: inline-block; padding: 2px 6px; border: 1px dashed #888; color: #555; font-size: 12px; }
`

export interface SafeHtml {
  /** A whole document for `<iframe srcdoc>`. */
  document: string
  /** Pictures and other resources left out because they would be fetched from elsewhere. */
  blockedRemote: number
}

const REMOTE = /^\s*(https?:|\/\/|ftp:|file:)/i
const URL_ATTRIBUTES = ['src', 'srcset', 'background', 'poster', 'xlink:href', 'href', 'action', 'formaction']

/** Sanitises untrusted HTML (a Word document, a mail) for a sandboxed frame; remote resources are dropped. */
export function safeHtmlDocument(html: string): SafeHtml {
  let blockedRemote = 0
  const purify = DOMPurify()
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'img' && node instanceof Element) {
      const src = node.getAttribute('src') ?? ''
      if (REMOTE.test(src) || (src !== '' && !src.startsWith('data:image/'))) {
        blockedRemote++
        const note = node.ownerDocument.createElement('span')
        note.className = 'blocked-image'
        note.textContent = `[remote picture blocked${node.getAttribute('alt') ? `: ${node.getAttribute('alt')}` : ''}]`
        node.replaceWith(note)
      }
    }
  })
  purify.addHook('afterSanitizeAttributes', (node) => {
    for (const name of URL_ATTRIBUTES) {
      const value = node.getAttribute(name)
      if (value === null) continue
      if (name === 'href' && node.tagName === 'A') {
        // Links stay readable but inert: the frame cannot navigate, and nothing opens from it.
        node.setAttribute('title', value)
        node.removeAttribute('href')
        continue
      }
      if (REMOTE.test(value) || name === 'action' || name === 'formaction' || name === 'srcset') {
        blockedRemote++
        node.removeAttribute(name)
      }
    }
    const style = node.getAttribute('style')
    if (style && /url\s*\(/i.test(style)) {
      blockedRemote++
      node.setAttribute('style', style.replace(/url\s*\([^)]*\)/gi, 'none'))
    }
  })
  // Fail closed: where the sanitiser cannot work (no full DOM), the markup is shown as text.
  if (!purify.isSupported) return { document: frame(`<pre>${escapeHtml(html)}</pre>`), blockedRemote: 0 }
  const clean = purify.sanitize(html, {
    WHOLE_DOCUMENT: false,
    FORBID_TAGS: [
      'style',
      'link',
      'meta',
      'base',
      'form',
      'iframe',
      'frame',
      'object',
      'embed',
      'video',
      'audio',
      'source',
    ],
    FORBID_ATTR: ['ping'],
  })
  return { document: frame(clean), blockedRemote }
}

function frame(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_POLICY}"><style>${FRAME_STYLE}</style></head><body>${body}</body></html>`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
