export { claimValues, grantsFor } from './claim-grants.ts'
export {
  type OidcSettings,
  type OidcSignIn,
  oidcSignIn,
  type PendingSignIn,
  type SignedInPerson,
} from './oidc-sign-in.ts'
export { SignInError } from './sign-in-error.ts'
