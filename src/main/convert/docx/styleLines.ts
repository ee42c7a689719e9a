import { commentReference, equalTo, paragraph, run } from 'mammoth/lib/styles/document-matchers.js'
import { element, elements, empty } from 'mammoth/lib/styles/html-paths.js'

// mammoth's style-map lines in the forms its default map and Bureau's own lines use, read without
// its parser-combinator grammar (lop): that parser, run cold for the ~60 default lines, was ~20 ms
// of a CLI run's first .docx. A line in any other form (attributes, classes, separators, escapes,
// `^=`, other matchers, unusual spacing) is left to mammoth (`readStyleLine` answers undefined).

const IDENTIFIER = '[a-zA-Z_-][a-zA-Z0-9_-]*'
const suffix = new RegExp(
  `\\.(${IDENTIFIER})|\\[style-name='([^'\\\\]*)'\\]|:(ordered|unordered)-list\\((\\d+)\\)`,
  'y',
)
const line = /^(p|r|comment-reference)(.*?) =>(?: (.+))?$/
const pathElement = new RegExp(`^(${IDENTIFIER}(?:\\|${IDENTIFIER})*)(:fresh)?$`)

interface MatcherOptions {
  styleId?: string
  styleName?: ReturnType<typeof equalTo>
  list?: { isOrdered: boolean; levelIndex: number }
}

/** The matcher's suffixes merged as mammoth merges them (a later one of a kind wins), or undefined. */
function readSuffixes(text: string): MatcherOptions | undefined {
  const options: MatcherOptions = {}
  suffix.lastIndex = 0
  while (suffix.lastIndex < text.length) {
    const start = suffix.lastIndex
    const match = suffix.exec(text)
    if (!match || match.index !== start) return undefined
    const [, styleId, styleName, listType, level] = match
    if (styleId !== undefined) options.styleId = styleId
    else if (styleName !== undefined) options.styleName = equalTo(styleName)
    else options.list = { isOrdered: listType === 'ordered', levelIndex: Number(level) - 1 }
  }
  return options
}

function readMatcher(type: string, suffixes: string): unknown {
  if (type === 'comment-reference') return suffixes ? undefined : commentReference
  const options = readSuffixes(suffixes)
  if (!options) return undefined
  return type === 'p' ? paragraph(options) : run(options)
}

function readPath(text: string | undefined): unknown {
  if (text === undefined) return empty
  const parts = text.split(' > ').map((part) => pathElement.exec(part))
  if (parts.some((part) => !part)) return undefined
  return elements(
    parts.map((part) => {
      const [, names = '', fresh] = part as RegExpExecArray
      return element(names.split('|'), Object.create(null), fresh ? { fresh: true } : {})
    }),
  )
}

/** `{from, to}` as mammoth's style reader builds it for this line, or undefined when it is not in the forms read here. */
export function readStyleLine(text: string): { from: unknown; to: unknown } | undefined {
  const match = line.exec(text)
  if (!match) return undefined
  const [, type = '', suffixes = '', path] = match
  const from = readMatcher(type, suffixes)
  const to = from === undefined ? undefined : readPath(path)
  return to === undefined ? undefined : { from, to }
}
