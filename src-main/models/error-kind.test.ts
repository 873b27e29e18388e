import { APICallError } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { describeError } from './error-kind'

const apiError = (statusCode: number, responseBody: string, message = 'Internal Server Error') =>
  new APICallError({ message, url: 'http://127.0.0.1:1/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody, isRetryable: statusCode >= 500 })

/** What a person reads when a provider fails (issue 28): what the body says, never the JSON it came in. */
describe('describeError', () => {
  it.each([
    ['an OpenAI-style JSON error', apiError(500, '{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}'), 'Internal Server Error: The server had an error while processing your request. (HTTP 500)'],
    ["Anthropic's overloaded error", apiError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'Overloaded'), 'Overloaded (HTTP 529)'],
    ['a FastAPI detail', apiError(502, '{"detail":"upstream connect error"}', 'Bad Gateway'), 'Bad Gateway: upstream connect error (HTTP 502)'],
    ["a proxy's HTML page", apiError(503, '<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>', 'Service Unavailable'), 'Service Unavailable: the server answered with an HTML error page (HTTP 503)'],
    ['plain text', apiError(500, 'database is locked'), 'Internal Server Error: database is locked (HTTP 500)'],
  ])('%s', (_what, err, said) => {
    expect(describeError(err)).toBe(said)
  })
})
