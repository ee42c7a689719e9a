// Bureau example plugin: small text utilities. Plain JavaScript (ES module), loaded at run time.
// The default export receives the plugin API, so the plugin needs no dependency of its own.
import { Worker } from 'node:worker_threads'

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' })
const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' })
const MAX_TEXT = 5_000_000
/** A user's regular expression may backtrack for hours (`(a+)+$`); it runs in a worker with this deadline. */
const REGEX_DEADLINE_MS = 5_000

// The worker's whole program: count the matches, then replace, and send both back.
const REPLACE_IN_WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { text, source, flags, replacement, all } = workerData
const pattern = new RegExp(source, flags)
const replacements = all ? [...text.matchAll(pattern)].length : pattern.test(text) ? 1 : 0
pattern.lastIndex = 0
parentPort.postMessage({ text: text.replace(pattern, replacement), replacements })
`

/** @param {import('../../src/main/tools/pluginApi').PluginApi} api */
export default function textPlugin({ defineToolset, method, z, AppError }) {
  const Text = z.string().max(MAX_TEXT).describe('The text to work on.')

  const checkText = (text) => {
    if (text.length > MAX_TEXT)
      throw new AppError('TOO_LARGE', `The text is longer than ${MAX_TEXT} characters.`)
  }

  const countWords = (text) => {
    let words = 0
    for (const segment of wordSegmenter.segment(text)) if (segment.isWordLike) words++
    return words
  }

  const countSentences = (text) => {
    let sentences = 0
    for (const segment of sentenceSegmenter.segment(text)) if (segment.segment.trim() !== '') sentences++
    return sentences
  }

  const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

  /** Regex replace off the main thread: the host keeps answering, and a runaway pattern is stopped. */
  const replaceInWorker = (text, pattern, replacement, all) =>
    new Promise((resolve, reject) => {
      const worker = new Worker(REPLACE_IN_WORKER, {
        eval: true,
        workerData: { text, source: pattern.source, flags: pattern.flags, replacement, all },
        resourceLimits: { maxOldGenerationSizeMb: 512 },
      })
      const timer = setTimeout(() => {
        void worker.terminate()
        reject(
          new AppError(
            'TIMEOUT',
            `The regular expression ${JSON.stringify(pattern.source)} took longer than ${REGEX_DEADLINE_MS / 1000} s and was stopped; it probably backtracks (nested quantifiers such as (a+)+). Simplify it.`,
          ),
        )
      }, REGEX_DEADLINE_MS)
      worker.once('message', (result) => {
        clearTimeout(timer)
        void worker.terminate()
        resolve(result)
      })
      worker.once('error', (error) => {
        clearTimeout(timer)
        reject(new AppError('HANDLER_FAILED', `The regular expression failed: ${error.message}`))
      })
    })

  const buildPattern = ({ find, regex, ignoreCase, all }) => {
    const flags = `${all ? 'g' : ''}${ignoreCase ? 'i' : ''}`
    try {
      return new RegExp(regex ? find : escapeRegex(find), flags)
    } catch (error) {
      throw new AppError(
        'VALIDATION_FAILED',
        `Invalid regular expression ${JSON.stringify(find)}: ${error.message.replace(/^Invalid regular expression: /, '')}`,
      )
    }
  }

  return defineToolset({
    name: 'text',
    summary: 'Small text utilities: count words, find and replace (plain or regex), make URL slugs.',
    description:
      'Works on text passed as an argument (not on files). Word counting understands every script, including languages without spaces.',
    methods: {
      wordCount: method({
        description: 'Counts words, sentences, lines and characters in a text.',
        input: z.object({ text: Text }),
        output: z.object({
          words: z.number().int(),
          sentences: z.number().int(),
          lines: z.number().int(),
          characters: z.number().int().describe('Unicode characters, spaces included.'),
          charactersNoSpaces: z.number().int(),
        }),
        examples: [{ text: 'Hello world. How are you?' }],
        risk: 'read',
        run: async ({ text }) => {
          checkText(text)
          const characters = [...text].length
          return {
            words: countWords(text),
            sentences: countSentences(text),
            lines: text === '' ? 0 : text.split(/\r\n|\r|\n/).length,
            characters,
            charactersNoSpaces: [...text.replace(/\s/gu, '')].length,
          }
        },
      }),
      replace: method({
        description:
          'Finds and replaces text. Plain text by default; with regex=true, find is a JavaScript regular expression and the replacement may use $1, $<name> and $&.',
        input: z.object({
          text: Text,
          find: z.string().min(1).describe('The text or regular expression to look for.'),
          replacement: z.string().describe('What to put instead (may be empty).'),
          regex: z.boolean().default(false).describe('Treat find as a regular expression.'),
          ignoreCase: z.boolean().default(false).describe('Match regardless of upper/lower case.'),
          all: z.boolean().default(true).describe('Replace every match (false: only the first).'),
        }),
        output: z.object({
          text: z.string().describe('The text after replacing.'),
          replacements: z.number().int().describe('How many matches were replaced.'),
        }),
        examples: [
          {
            args: { text: 'Invoice 2023-01, Invoice 2023-02', find: '2023', replacement: '2024' },
            description: 'plain text',
          },
          {
            args: { text: 'Call 555-1234', find: '(\\d{3})-(\\d{4})', replacement: '$1 $2', regex: true },
            description: 'regex with groups',
          },
        ],
        risk: 'read',
        run: async ({ text, find, replacement, regex, ignoreCase, all }) => {
          checkText(text)
          const pattern = buildPattern({ find, regex, ignoreCase, all })
          if (regex) return replaceInWorker(text, pattern, replacement, all)
          const replacements = all ? [...text.matchAll(pattern)].length : pattern.test(text) ? 1 : 0
          pattern.lastIndex = 0
          // Plain mode passes a function so `$` in the replacement stays literal.
          const result = text.replace(pattern, () => replacement)
          return { text: result, replacements }
        },
      }),
      slugify: method({
        description:
          'Turns a title into a URL- or file-name-friendly slug: "Ça va? Größe 2!" -> "ca-va-grosse-2".',
        input: z.object({
          text: Text,
          separator: z.string().max(3).default('-').describe('What joins the words.'),
          lowercase: z.boolean().default(true).describe('Lower-case the slug.'),
          maxLength: z
            .number()
            .int()
            .positive()
            .optional()
            .describe('Cut the slug at a word boundary to at most this length.'),
        }),
        output: z.object({ slug: z.string() }),
        examples: [{ text: 'Quarterly Report: Q3 2024 (final)' }],
        risk: 'read',
        run: async ({ text, separator, lowercase, maxLength }) => {
          checkText(text)
          const ascii = text
            .replace(/ß/g, 'ss')
            .replace(/[æÆ]/g, 'ae')
            .replace(/[øØ]/g, 'o')
            .replace(/[œŒ]/g, 'oe')
            .replace(/[łŁ]/g, 'l')
            .normalize('NFKD')
            .replace(/\p{M}/gu, '')
          const words = ascii.split(/[^\p{L}\p{N}]+/u).filter(Boolean)
          let slug = words.join(separator)
          if (lowercase) slug = slug.toLowerCase()
          if (maxLength && slug.length > maxLength) {
            const cut = slug.slice(0, maxLength)
            const atBoundary = !separator || slug.startsWith(separator, maxLength)
            const boundary = atBoundary ? -1 : cut.lastIndexOf(separator)
            slug = boundary > 0 ? cut.slice(0, boundary) : cut
          }
          return { slug }
        },
      }),
    },
  })
}
