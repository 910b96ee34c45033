import type { SignInProblem } from '@rag/api-contract/enums'

export class SignInError extends Error {
  constructor(
    readonly problem: SignInProblem,
    message: string,
  ) {
    super(message)
    this.name = 'SignInError'
  }
}
