/** The platform's version, as the API description and the MCP server report it. */
export const PLATFORM_VERSION = '1.0.0'
