import { OpenAPIHono, z } from '@hono/zod-openapi'
import { endUserSessionById, listUserSessions } from '@rag/access'
import { userSessionListSchema } from '@rag/api-contract'
import type { Pool } from '@rag/db'
import { HttpError } from '../http-error.ts'
import { commonErrors, crossSiteErrors, errorResponse, uuidParam } from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'
import type { Revocations } from './revocations.ts'
import { defineRoute } from './route-policy.ts'

const listRoute = defineRoute(
  {
    method: 'get',
    path: '/sessions',
    operationId: 'listUserSessions',
    tags: ['access'],
    summary: 'People signed in through single sign-on, with the role and collections they got (admin)',
    responses: {
      200: {
        description: 'Open sessions',
        content: { 'application/json': { schema: userSessionListSchema } },
      },
      ...commonErrors,
    },
  },
  { role: 'admin' },
)
const endRoute = defineRoute(
  {
    method: 'delete',
    path: '/sessions/{id}',
    operationId: 'endUserSession',
    tags: ['access'],
    summary: "Sign a person out (admin): their session's next request, open streams included, is refused",
    request: { params: z.object({ id: uuidParam('id', 'The session') }) },
    responses: {
      204: { description: 'Signed out' },
      ...commonErrors,
      ...crossSiteErrors,
      404: errorResponse('No open session with this id'),
    },
  },
  { role: 'admin' },
)

/** Sign-in sessions for admins (their definitions). */
export function userSessionRoutes(deps: { pool: Pool; revocations?: Revocations }) {
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(listRoute, async (c) => c.json({ sessions: await listUserSessions(deps.pool) }, 200))
    .openapi(endRoute, async (c) => {
      const ended = await endUserSessionById(deps.pool, c.req.valid('param').id)
      if (!ended) throw new HttpError(404, 'no open session with this id')
      await deps.revocations?.announce(`session:${ended}`)
      return c.body(null, 204)
    })
}
