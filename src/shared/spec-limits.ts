/** The spec's cap on a request body (Limits: "at most 1,048,576 bytes"), for the sandbox and the proxy. */
export const MAX_BODY_BYTES = 1_048_576;
