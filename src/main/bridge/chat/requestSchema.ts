import { z } from 'zod'

const TextPart = z.object({ type: z.literal('text'), text: z.string() })
const FilePart = z.object({
  type: z.literal('file'),
  file: z.object({
    file_id: z.string().optional(),
    /** A data URL (`data:<type>;base64,...`) or plain base64, with `filename`. */
    file_data: z.string().optional(),
    filename: z.string().optional(),
  }),
})
const ImagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string(), detail: z.string().optional() }),
})
const RefusalPart = z.object({ type: z.literal('refusal'), refusal: z.string() })
/** Parts the bridge cannot use are kept loose here and refused with a clear message later. */
const OtherPart = z.looseObject({ type: z.string() })

export const ContentPart = z.union([TextPart, FilePart, ImagePart, RefusalPart, OtherPart])
export type ContentPart = z.infer<typeof ContentPart>

const Content = z.union([z.string(), z.array(ContentPart)]).nullish()

export const ChatMessageInput = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: Content,
  name: z.string().optional(),
  tool_calls: z.array(z.unknown()).optional(),
  function_call: z.unknown().optional(),
})
export type ChatMessageInput = z.infer<typeof ChatMessageInput>

/** The request fields the bridge reads; any other OpenAI field is accepted and ignored. */
export const ChatCompletionRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(ChatMessageInput).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  n: z.number().int().nullish(),
  tools: z.array(z.unknown()).nullish(),
  functions: z.array(z.unknown()).nullish(),
  response_format: z.looseObject({ type: z.string() }).nullish(),
})
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>
