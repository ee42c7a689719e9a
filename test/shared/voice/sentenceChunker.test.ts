import { describe, expect, it } from 'vitest'
import { chunkText, createSentenceChunker, type SpokenSentence } from '../../../src/shared/voice'

const texts = (sentences: SpokenSentence[]) => sentences.map((s) => s.text)

/** Feeds the text in pieces cut by `sizes` (cycled), as a model stream would. */
function streamed(text: string, sizes: number[]): SpokenSentence[] {
  const chunker = createSentenceChunker()
  const out: SpokenSentence[] = []
  let at = 0
  for (let i = 0; at < text.length; i++) {
    const size = sizes[i % sizes.length] ?? 1
    out.push(...chunker.push(text.slice(at, at + size)))
    at += size
  }
  return [...out, ...chunker.end()]
}

interface Case {
  name: string
  input: string
  expected: string[]
}

const corpus: Record<string, Case[]> = {
  abbreviations: [
    {
      name: 'titles',
      input: "Dr. Smith met Mrs. Jones at St. Mary's church. They talked for hours.",
      expected: ["Dr. Smith met Mrs. Jones at St. Mary's church.", 'They talked for hours.'],
    },
    {
      name: 'e.g. before a capital',
      input: 'Use a spreadsheet, e.g. Excel or LibreOffice Calc. It works well.',
      expected: ['Use a spreadsheet, e.g. Excel or LibreOffice Calc.', 'It works well.'],
    },
    {
      name: 'i.e. and cf.',
      input: 'The totals, i.e. the sums per region, are in column C, cf. Fig. 2 for details. Check them.',
      expected: [
        'The totals, i.e. the sums per region, are in column C, cf. Fig. 2 for details.',
        'Check them.',
      ],
    },
    {
      name: 'initials',
      input: 'J. R. R. Tolkien wrote The Hobbit in 1937. It is still popular.',
      expected: ['J. R. R. Tolkien wrote The Hobbit in 1937.', 'It is still popular.'],
    },
    {
      name: 'etc. before a lower-case word',
      input: 'Apples, pears, etc. are fruit. Carrots are not fruit at all.',
      expected: ['Apples, pears, etc. are fruit.', 'Carrots are not fruit at all.'],
    },
    {
      name: 'a.m. ending a sentence',
      input: 'The meeting starts tomorrow at 10 a.m. The room is booked until noon.',
      expected: ['The meeting starts tomorrow at 10 a.m.', 'The room is booked until noon.'],
    },
    {
      name: 'German z.B.',
      input: 'Wir brauchen z.B. eine Tabelle mit Zahlen. Danach geht es weiter.',
      expected: ['Wir brauchen z.B. eine Tabelle mit Zahlen.', 'Danach geht es weiter.'],
    },
    {
      name: 'vs. and No.',
      input: 'Compare plan No. 4 vs. plan No. 7 before Monday. Plan 7 is cheaper.',
      expected: ['Compare plan No. 4 vs. plan No. 7 before Monday.', 'Plan 7 is cheaper.'],
    },
  ],
  numbers: [
    {
      name: 'decimals',
      input: 'Pi is about 3.14159 and e is about 2.71828. Both are irrational numbers.',
      expected: ['Pi is about 3.14159 and e is about 2.71828.', 'Both are irrational numbers.'],
    },
    {
      name: 'money and percentages',
      input: 'Revenue grew 12.5% to $1,234.56 million in Q3. Costs fell by 3.2%.',
      expected: ['Revenue grew 12.5% to $1,234.56 million in Q3.', 'Costs fell by 3.2%.'],
    },
    {
      name: 'versions',
      input: 'Upgrade from version 2.0.1 to v3.10.2 before Friday. The old one is unsupported.',
      expected: ['Upgrade from version 2.0.1 to v3.10.2 before Friday.', 'The old one is unsupported.'],
    },
    {
      name: 'file names and dotted names',
      input: 'Open report.final.xlsx in Node.js or Excel 365. Then save it as report.csv.',
      expected: ['Open report.final.xlsx in Node.js or Excel 365.', 'Then save it as report.csv.'],
    },
    {
      name: 'a number ending a sentence',
      input: 'The workbook has 12 sheets and the total is 1,024. Sheet 3 is empty though.',
      expected: ['The workbook has 12 sheets and the total is 1,024.', 'Sheet 3 is empty though.'],
    },
  ],
  urls: [
    {
      name: 'a bare URL is named by its host, its dots never split',
      input: 'Download it from https://nodejs.org/en/download/current. Then run the installer.',
      expected: ['Download it from nodejs.org.', 'Then run the installer.'],
    },
    {
      name: 'a URL with a query in the middle of a sentence',
      input: 'The file is at https://www.example.com/a/b.xlsx?v=1.2&x=y for everyone. Open it now please.',
      expected: ['The file is at example.com for everyone.', 'Open it now please.'],
    },
    {
      name: 'e-mail addresses',
      input: 'Write to support@example.com. We answer within a day.',
      expected: ['Write to support@example.com.', 'We answer within a day.'],
    },
    {
      name: 'a URL without scheme stays whole',
      input: 'See www.example.com/help for the details. It has a search box.',
      expected: ['See www.example.com/help for the details.', 'It has a search box.'],
    },
    {
      name: 'Markdown links and autolinks',
      input:
        'Read [the guide](https://example.com/guide?a=1&b=2) first, then <https://docs.example.org/page>. It helps.',
      expected: ['Read the guide first, then docs.example.org.', 'It helps.'],
    },
  ],
  markdown: [
    {
      name: 'headings, emphasis, inline code, strike-through',
      input: '# Quarterly report\n\nSales rose **sharply** in _March_, see `report.xlsx` and __notes__.',
      expected: ['Quarterly report. Sales rose sharply in March, see report.xlsx and notes.'],
    },
    {
      name: 'lists: each item is a sentence end, markers are not read',
      input:
        '- Agents talk to each other to solve tasks\n* Humans can join at any point\n+ [x] Tools are built in too',
      expected: [
        'Agents talk to each other to solve tasks.',
        'Humans can join at any point.',
        'Tools are built in too',
      ],
    },
    {
      name: 'numbered list items merge when short',
      input: '1. Open the file\n2. Edit cell B2\n3. Save it',
      expected: ['Open the file. Edit cell B2.', 'Save it'],
    },
    {
      name: 'quotes, rules, images',
      input:
        '> Quoted remark from the CFO\n> about the margins.\n\n---\n\n![chart](chart.png)\n\nThat was the quote.',
      expected: ['Quoted remark from the CFO about the margins.', 'That was the quote.'],
    },
    {
      name: 'HTML, entities, footnotes, escapes, snake_case',
      input: 'Tom &amp; Jerry said <b>hello</b>[^1]. Prices are 5\\*3 units, said my_var.',
      expected: ['Tom & Jerry said hello. Prices are 5*3 units, said my_var.'],
    },
    {
      name: 'soft line wraps join, blank lines end paragraphs',
      input: 'This sentence is wrapped\nover two lines\n\nA new paragraph starts here',
      expected: ['This sentence is wrapped over two lines.', 'A new paragraph starts here'],
    },
  ],
  code: [
    {
      name: 'a fenced block is replaced by a note, its dots never read',
      input: "Here is the script you need:\n\n```python\nprint('a. b. c.')\n```\n\nRun it twice.",
      expected: ['Here is the script you need:', 'See the Python code on screen.', 'Run it twice.'],
    },
    {
      name: 'tilde fences, unknown language, Mermaid',
      input: '~~~\nx = 1\n~~~\n```mermaid\ngraph TD; A-->B\n```\nDone with the diagrams.',
      expected: ['See the code on screen.', 'See the diagram on screen.', 'Done with the diagrams.'],
    },
    {
      name: 'an unclosed fence at the end still becomes a note',
      input: 'The query follows below for you:\n```sql\nSELECT 1;\nSELECT 2;',
      expected: ['The query follows below for you:', 'See the SQL code on screen.'],
    },
    {
      name: 'tables',
      input:
        'The regions compare as follows:\n\n| Region | Sales |\n| --- | ---: |\n| North | 1.5 |\n| South | 2.5 |\n\nNorth is behind.',
      expected: ['The regions compare as follows:', 'See the table on screen.', 'North is behind.'],
    },
  ],
  cjk: [
    {
      name: 'Chinese full stops and marks, no spaces',
      input: '今天天气很好。我们去公园吧！你觉得怎么样？好的。',
      expected: ['今天天气很好。我们去公园吧！', '你觉得怎么样？好的。'],
    },
    {
      name: 'Japanese with closing quotes kept in the sentence',
      input: '今日は晴れです。散歩に行きましょう！「はい」と彼は言った。',
      expected: ['今日は晴れです。散歩に行きましょう！', '「はい」と彼は言った。'],
    },
    {
      name: 'Chinese decimals do not split',
      input: '价格是3.5元，比去年高了很多很多。明天见。',
      expected: ['价格是3.5元，比去年高了很多很多。', '明天见。'],
    },
    {
      name: 'Hindi danda',
      input: 'यह एक वाक्य है। यह दूसरा वाक्य है। और यह तीसरा।',
      expected: ['यह एक वाक्य है। यह दूसरा वाक्य है।', 'और यह तीसरा।'],
    },
    {
      name: 'mixed scripts',
      input: 'The word 你好 means hello in Chinese. It is very common.',
      expected: ['The word 你好 means hello in Chinese.', 'It is very common.'],
    },
  ],
  punctuation: [
    {
      name: 'question and exclamation marks, ellipsis before lower case',
      input: 'Wait... what happened here? I am not sure at all! Really?! Yes.',
      expected: ['Wait... what happened here?', 'I am not sure at all! Really?!', 'Yes.'],
    },
    {
      name: 'semicolons end sentences',
      input: 'The first sheet holds the raw data; the second sheet holds the totals.',
      expected: ['The first sheet holds the raw data;', 'the second sheet holds the totals.'],
    },
    {
      name: 'closing quotes stay with their sentence',
      input: 'She wrote "The budget is final." Nobody argued with her after that.',
      expected: ['She wrote "The budget is final."', 'Nobody argued with her after that.'],
    },
  ],
}

describe('sentence chunker corpus', () => {
  for (const [group, cases] of Object.entries(corpus)) {
    describe(group, () => {
      for (const c of cases) {
        it(c.name, () => {
          expect(texts(chunkText(c.input))).toEqual(c.expected)
        })
        it(`${c.name} (streamed in uneven pieces gives the same sentences)`, () => {
          expect(texts(streamed(c.input, [1]))).toEqual(c.expected)
          expect(texts(streamed(c.input, [3, 1, 7, 2, 13, 5]))).toEqual(c.expected)
        })
      }
    })
  }
})

describe('sentence chunker behaviour', () => {
  it('emits the first sentence as soon as the next word begins, before the stream ends', () => {
    const chunker = createSentenceChunker()
    expect(chunker.push('The workbook has three sheets and')).toEqual([])
    expect(chunker.push(' one chart.')).toEqual([])
    const first = chunker.push(' T')
    expect(texts(first)).toEqual(['The workbook has three sheets and one chart.'])
    expect(first[0]?.index).toBe(0)
  })

  it('emits a CJK sentence before the line ends (CJK has no spaces to wait for)', () => {
    const chunker = createSentenceChunker()
    expect(texts(chunker.push('我们今天一起去公园散步吧。然后'))).toEqual(['我们今天一起去公园散步吧。'])
  })

  it('emits after ? and ! as soon as a space follows', () => {
    const chunker = createSentenceChunker()
    expect(texts(chunker.push('Do you want me to change the totals? '))).toEqual([
      'Do you want me to change the totals?',
    ])
  })

  it('merges short fragments with the next sentence', () => {
    expect(texts(chunkText('Yes. Sure. The file has three sheets. OK.'))).toEqual([
      'Yes. Sure. The file has three sheets.',
      'OK.',
    ])
  })

  it('honours a custom minimum length', () => {
    expect(texts(chunkText('Yes. Sure. Fine.', { minChars: 1 }))).toEqual(['Yes.', 'Sure.', 'Fine.'])
  })

  it('cuts an overlong sentence at a comma while it streams', () => {
    const clause = 'the regional office reported higher sales than planned'
    const long = `${Array.from({ length: 10 }, () => clause).join(', ')}.`
    const sentences = chunkText(long)
    expect(sentences.length).toBeGreaterThan(1)
    for (const s of sentences) expect(s.text.length).toBeLessThanOrEqual(260)
    expect(sentences.map((s) => s.text).join(' ')).toBe(long)
  })

  it('numbers sentences in order and keeps the block source for the screen', () => {
    const sentences = chunkText(
      'First we load the data properly.\n\n```js\nconst x = 1\n```\nThen we are done here.',
    )
    expect(sentences.map((s) => s.index)).toEqual([0, 1, 2])
    expect(sentences[1]).toMatchObject({ kind: 'code', language: 'js', source: 'const x = 1' })
  })

  it('never reads Markdown syntax characters aloud', () => {
    const markdown = [
      '## Summary',
      '',
      'The paper presents **AutoGen**, a framework built from *conversable agents*.',
      '',
      '- Agents talk to each other',
      '- Humans can join at any point',
      '',
      '| Part | Pages |',
      '| --- | ---: |',
      '| Introduction | 2 |',
      '',
      '```python',
      'assistant = AssistantAgent("assistant")',
      '```',
    ].join('\n')
    for (const sentence of streamed(markdown, [2, 5, 1, 9])) {
      expect(sentence.text).not.toMatch(/[#*|`_[\]]/)
    }
  })

  it('an empty or whitespace-only stream yields nothing', () => {
    expect(chunkText('')).toEqual([])
    expect(chunkText('  \n\n ')).toEqual([])
  })
})
