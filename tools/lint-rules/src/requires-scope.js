// Every HTTP route of the gateway's public API must say which key scope it needs with
// @RequiresScope, or say it is public with @Public; a route with neither fails lint.
const ROUTE_DECORATORS = new Set([
  'Get',
  'Post',
  'Put',
  'Patch',
  'Delete',
  'All',
  'Head',
  'Options',
]);
// Console routes: @ConsoleAccess(permission) for a member's session, @ConsoleOpen for sign-in.
const ACCESS_DECORATORS = new Set(['RequiresScope', 'Public', 'ConsoleAccess', 'ConsoleOpen']);

function decoratorName(decorator) {
  const expression = decorator.expression;
  if (expression.type === 'CallExpression' && expression.callee.type === 'Identifier') {
    return expression.callee.name;
  }
  return expression.type === 'Identifier' ? expression.name : null;
}

module.exports = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'gateway routes must declare @RequiresScope, @Public, @ConsoleAccess or @ConsoleOpen',
    },
    messages: {
      missing:
        'Route {{name}} has no @RequiresScope(...), @Public(), @ConsoleAccess(...) or @ConsoleOpen(): say who may call it.',
    },
    schema: [],
  },
  create(context) {
    return {
      MethodDefinition(node) {
        const names = (node.decorators ?? []).map(decoratorName);
        if (!names.some((name) => ROUTE_DECORATORS.has(name))) return;
        const classNames = (node.parent.parent.decorators ?? []).map(decoratorName);
        if ([...names, ...classNames].some((name) => ACCESS_DECORATORS.has(name))) return;
        context.report({ node, messageId: 'missing', data: { name: node.key.name ?? '?' } });
      },
    };
  },
};
