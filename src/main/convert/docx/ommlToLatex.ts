import { type MathNode as ChildNode, type MathElement as Element, mathNodes } from './ommlNodes'

const symbols: Record<string, string> = {
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  δ: '\\delta',
  ε: '\\epsilon',
  ζ: '\\zeta',
  η: '\\eta',
  θ: '\\theta',
  ι: '\\iota',
  κ: '\\kappa',
  λ: '\\lambda',
  μ: '\\mu',
  ν: '\\nu',
  ξ: '\\xi',
  π: '\\pi',
  ρ: '\\rho',
  σ: '\\sigma',
  τ: '\\tau',
  υ: '\\upsilon',
  φ: '\\phi',
  χ: '\\chi',
  ψ: '\\psi',
  ω: '\\omega',
  Γ: '\\Gamma',
  Δ: '\\Delta',
  Θ: '\\Theta',
  Λ: '\\Lambda',
  Ξ: '\\Xi',
  Π: '\\Pi',
  Σ: '\\Sigma',
  Φ: '\\Phi',
  Ψ: '\\Psi',
  Ω: '\\Omega',
  '×': '\\times',
  '÷': '\\div',
  '±': '\\pm',
  '∓': '\\mp',
  '·': '\\cdot',
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '≈': '\\approx',
  '∞': '\\infty',
  '→': '\\rightarrow',
  '←': '\\leftarrow',
  '⇒': '\\Rightarrow',
  '∂': '\\partial',
  '∇': '\\nabla',
  '∈': '\\in',
  '∉': '\\notin',
  '⊂': '\\subset',
  '∪': '\\cup',
  '∩': '\\cap',
  '°': '{}^{\\circ}',
  '∘': '\\circ',
  '′': "'",
  '−': '-',
  '…': '\\ldots',
  '⋯': '\\cdots',
  '\u2061': '',
}

const naryOperators: Record<string, string> = {
  '∑': '\\sum',
  '∏': '\\prod',
  '∫': '\\int',
  '∬': '\\iint',
  '∭': '\\iiint',
  '∮': '\\oint',
  '⋃': '\\bigcup',
  '⋂': '\\bigcap',
}

const accents: Record<string, string> = {
  '̂': '\\hat',
  '̃': '\\tilde',
  '̄': '\\bar',
  '⃗': '\\vec',
  '̇': '\\dot',
  '̈': '\\ddot',
}

function elements(node: Element): Element[] {
  return node.children.filter((child): child is Element => child.type === 'tag')
}

function child(node: Element, name: string): Element | undefined {
  return elements(node).find((element) => element.name === name)
}

function property(node: Element, propertyName: string, valueName: string): string | undefined {
  const properties = elements(node).find((element) => element.name.endsWith('Pr'))
  const target = properties && child(properties, propertyName)
  return target?.attribs['m:val'] ?? target?.attribs.val ?? (target ? valueName : undefined)
}

function text(node: ChildNode): string {
  if (node.type === 'text') return node.data
  if (node.type !== 'tag') return ''
  return node.children.map(text).join('')
}

export interface LatexStyle {
  /**
   * Keep letters and symbols that LaTeX spells as one command (θ, λ, ×, ≤, ∞) as the characters the
   * document has, as pandoc does for inline math; structure (fractions, scripts, roots) stays LaTeX.
   */
  unicodeSymbols: boolean
}

function translateText(value: string, style: LatexStyle): string {
  let out = ''
  for (const char of value) {
    const mapped = symbols[char]
    const command = mapped !== undefined && /^\\[a-zA-Z]+$/.test(mapped)
    out += mapped === undefined || (command && style.unicodeSymbols) ? char : command ? `${mapped} ` : mapped
  }
  return out.replace(/ $/, '')
}

function group(node: Element | undefined, style: LatexStyle): string {
  return node ? convertChildren(node, style) : ''
}

function convert(node: Element, style: LatexStyle): string {
  const name = node.name.replace(/^m:/, '')
  switch (name) {
    case 'r': {
      const run = elements(node)
        .filter((element) => element.name === 'm:t')
        .map(text)
        .join('')
      return property(node, 'm:nor', 'true') ? `\\text{${run}}` : translateText(run, style)
    }
    case 'f':
      return `\\frac{${group(child(node, 'm:num'), style)}}{${group(child(node, 'm:den'), style)}}`
    case 'sSup':
      return `{${group(child(node, 'm:e'), style)}}^{${group(child(node, 'm:sup'), style)}}`
    case 'sSub':
      return `{${group(child(node, 'm:e'), style)}}_{${group(child(node, 'm:sub'), style)}}`
    case 'sSubSup':
      return `{${group(child(node, 'm:e'), style)}}_{${group(child(node, 'm:sub'), style)}}^{${group(child(node, 'm:sup'), style)}}`
    case 'sPre':
      return `{}_{${group(child(node, 'm:sub'), style)}}^{${group(child(node, 'm:sup'), style)}}${group(child(node, 'm:e'), style)}`
    case 'rad': {
      const degree = group(child(node, 'm:deg'), style)
      return degree
        ? `\\sqrt[${degree}]{${group(child(node, 'm:e'), style)}}`
        : `\\sqrt{${group(child(node, 'm:e'), style)}}`
    }
    case 'd': {
      const open = property(node, 'm:begChr', '(') ?? '('
      const close = property(node, 'm:endChr', ')') ?? ')'
      const separator = property(node, 'm:sepChr', '|') ?? '|'
      const inner = elements(node)
        .filter((element) => element.name === 'm:e')
        .map((element) => convertChildren(element, style))
        .join(separator)
      const fence = (char: string) => (char === '{' || char === '}' ? `\\${char}` : char || '.')
      return `\\left${fence(open)} ${inner} \\right${fence(close)}`
    }
    case 'nary': {
      const chr = property(node, 'm:chr', '∫') ?? '∫'
      const operator = naryOperators[chr] ?? chr
      const sub = group(child(node, 'm:sub'), style)
      const sup = group(child(node, 'm:sup'), style)
      return `${operator}${sub ? `_{${sub}}` : ''}${sup ? `^{${sup}}` : ''}{${group(child(node, 'm:e'), style)}}`
    }
    case 'func':
      return `${group(child(node, 'm:fName'), style)}{${group(child(node, 'm:e'), style)}}`
    case 'acc': {
      const chr = property(node, 'm:chr', '̂') ?? '̂'
      return `${accents[chr] ?? '\\hat'}{${group(child(node, 'm:e'), style)}}`
    }
    case 'bar':
      return `\\overline{${group(child(node, 'm:e'), style)}}`
    case 'groupChr':
      return `\\underbrace{${group(child(node, 'm:e'), style)}}`
    case 'limLow':
      return `{${group(child(node, 'm:e'), style)}}_{${group(child(node, 'm:lim'), style)}}`
    case 'limUpp':
      return `{${group(child(node, 'm:e'), style)}}^{${group(child(node, 'm:lim'), style)}}`
    case 'eqArr':
      return `\\begin{array}{l}${elements(node)
        .filter((element) => element.name === 'm:e')
        .map((element) => convertChildren(element, style))
        .join(' \\\\ ')}\\end{array}`
    case 'm':
      return `\\begin{matrix}${elements(node)
        .filter((element) => element.name === 'm:mr')
        .map((row) =>
          elements(row)
            .filter((element) => element.name === 'm:e')
            .map((element) => convertChildren(element, style))
            .join(' & '),
        )
        .join(' \\\\ ')}\\end{matrix}`
    default:
      // Property blocks carry formatting only; containers (oMath, e, box, borderBox, ...) pass through.
      return name.endsWith('Pr') || !node.name.startsWith('m:') ? '' : convertChildren(node, style)
  }
}

function convertChildren(node: Element, style: LatexStyle): string {
  return elements(node)
    .map((element) => convert(element, style))
    .join('')
}

/** Converts one `<m:oMath>` or `<m:oMathPara>` snippet of Office Math to LaTeX. */
export async function ommlToLatex(
  xml: string,
  style: LatexStyle = { unicodeSymbols: false },
): Promise<string> {
  return (await mathNodes(xml))
    .filter((node): node is Element => node.type === 'tag')
    .map((node) =>
      node.name === 'm:oMathPara'
        ? elements(node)
            .filter((element) => element.name === 'm:oMath')
            .map((element) => convertChildren(element, style))
            .join(' \\\\ ')
        : convertChildren(node, style),
    )
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
}
