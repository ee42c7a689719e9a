import { cliUsage, exampleCall, renderCliCall } from '../call/cliUsage'
import { methodInfo, type ParamInfo } from '../call/methodInfo'
import { exampleDescription } from '../defineToolset'
import { cliMethodName, cliOptionName } from '../naming'
import type { AnyToolMethod, Toolset } from '../types'

const HOW_TO = 'Usage: <toolset> <method> [arguments...] [--option value]'

function pad(text: string, width: number): string {
  return text.length >= width ? `${text}  ` : text.padEnd(width)
}

function firstSentence(text: string): string {
  const line = text.split('\n')[0] ?? ''
  const match = /^(.+?\.)(\s|$)/.exec(line)
  return (match?.[1] ?? line).trim()
}

/** `help`: the toolsets and how to use the terminal. */
export function topHelp(toolsets: readonly Toolset[]): string {
  const width = Math.max(8, ...toolsets.map((t) => t.name.length + 2))
  const lines = toolsets.map((t) => `  ${pad(t.name, width)}${t.summary}`)
  const first = toolsets[0]
  const firstMethod = first ? Object.keys(first.methods)[0] : undefined
  const example =
    first && firstMethod ? renderCliCall(first, firstMethod, exampleCall(first, firstMethod).args) : undefined
  return [
    HOW_TO,
    '',
    'Toolsets:',
    ...(lines.length > 0 ? lines : ['  (none)']),
    '',
    'Run `<toolset> --help` for its methods and `<toolset> <method> --help` for parameters.',
    'Quote values that contain spaces. Options: --name value, --name=value, --flag / --no-flag; lists as a,b,c or JSON.',
    ...(example ? [`Example: ${example}`] : []),
  ].join('\n')
}

/**
 * `<toolset> --help`: the toolset's manual in little space: its description, then per method the
 * usage line (positional parameters in order, options) and what it does in one sentence.
 */
export function toolsetHelp(toolset: Toolset): string {
  const methods = Object.keys(toolset.methods).map((key) => {
    const method = toolset.methods[key] as AnyToolMethod
    const usage = cliUsage(toolset, key).slice(toolset.name.length + 1)
    return `  ${usage}\n      ${firstSentence(method.description)}`
  })
  return [
    `${toolset.name}: ${toolset.summary}`,
    ...(toolset.description !== toolset.summary ? ['', toolset.description] : []),
    '',
    'Methods:',
    ...methods,
    '',
    `Run \`${toolset.name} <method> --help\` for parameter types, defaults, an example and what it returns.`,
  ].join('\n')
}

/** Descriptions nested in a parameter's schema (each item of a list, each cell of a table). */
function nestedNotes(param: ParamInfo): string[] {
  const notes: string[] = []
  let schema = param.schema.items
  let label = 'each item'
  for (let depth = 0; schema && depth < 3; depth++) {
    if (schema.description) notes.push(`      ${label}: ${schema.description}`)
    schema = schema.items
    label = 'each value'
  }
  return notes
}

function paramLine(param: ParamInfo, positional: boolean): string {
  const name = positional ? `<${param.name}>` : cliOptionName(param.name)
  const facts = [param.type]
  if (param.required) facts.push('required')
  if (param.hasDefault) facts.push(`default ${JSON.stringify(param.default)}`)
  if (param.isBoolean && !param.required) facts.push(`--no-${cliOptionName(param.name).slice(2)} to turn off`)
  const description = param.description ? ` ${param.description}` : ''
  return `  ${name} (${facts.join(', ')})${description}`
}

/** `<toolset> <method> --help`: usage, parameters with types and defaults, return shape, an example. */
export function methodHelp(toolset: Toolset, key: string): string {
  const method = toolset.methods[key] as AnyToolMethod
  const info = methodInfo(method)
  let positionalCount = 0
  for (const param of info.params) {
    if (!param.required) break
    positionalCount++
  }
  const example = exampleCall(toolset, key)
  const exampleNote = example.declared ? exampleDescription(method.examples?.[0]) : undefined
  return [
    `${toolset.name} ${cliMethodName(key)}: ${method.description}`,
    '',
    `Usage: ${cliUsage(toolset, key)}`,
    ...(info.params.length > 0
      ? [
          '',
          'Parameters (positional in this order, or as --options):',
          ...info.params.flatMap((p, i) => [paramLine(p, i < positionalCount), ...nestedNotes(p)]),
        ]
      : ['', 'No parameters.']),
    '',
    `Returns: ${info.returns}`,
    `Example: ${renderCliCall(toolset, key, example.args)}${exampleNote ? `  # ${exampleNote}` : ''}`,
  ].join('\n')
}
