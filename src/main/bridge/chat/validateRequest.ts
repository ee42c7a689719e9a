import { bridgeErrors } from '../errors'
import { ChatCompletionRequest } from './requestSchema'

function paramOf(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : String(key))).join('.')
}

/** Checks a parsed body; throws the OpenAI-shaped 400 for anything the bridge cannot honour. */
export function validateRequest(body: unknown): ChatCompletionRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bridgeErrors.invalid('The request body must be a JSON object.')
  const parsed = ChatCompletionRequest.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const param = issue ? paramOf(issue.path) : null
    throw bridgeErrors.invalid(`Invalid value for '${param}': ${issue?.message ?? 'bad value'}.`, param)
  }
  const request = parsed.data
  if ((request.tools?.length ?? 0) > 0 || (request.functions?.length ?? 0) > 0)
    throw bridgeErrors.invalid(
      "Client-defined tools are not supported: Bureau's agent calls its own typed tools. Remove 'tools' and 'tool_choice', and pick a model from GET /v1/models (bureau-agent, or bureau-<toolset> for one toolset).",
      request.tools ? 'tools' : 'functions',
      'tools_not_supported',
    )
  if (request.stream_options != null && request.stream !== true)
    throw bridgeErrors.invalid(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      'stream_options',
    )
  if (request.n != null && request.n !== 1)
    throw bridgeErrors.invalid("Only one choice is generated: 'n' must be 1.", 'n')
  if (request.response_format && request.response_format.type !== 'text')
    throw bridgeErrors.invalid(
      `response_format "${request.response_format.type.slice(0, 40)}" is not supported; the answer is text.`,
      'response_format',
    )
  return request
}
