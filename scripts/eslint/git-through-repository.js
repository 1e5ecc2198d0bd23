// Git has one door (ADR 052): the configuration repository in packages/connectors/src/repository.
// This rule refuses any use of the DevOps client's git methods (the members of its `GitPort`)
// elsewhere, whatever the variable is called: it asks the type checker where the member used is
// declared, so `lines.push(…)` passes and `devops.push(repo, …)` does not.
import ts from 'typescript';

const PORT = 'GitPort';
/** Which repositories exist (ids for policy scopes, pipeline definitions), not what is in them. */
const METADATA = new Set(['listRepositories', 'getRepository']);

/** The names of GitPort's members, read once per program from the interface itself. */
const portMembers = new WeakMap();

function membersOf(program) {
  let names = portMembers.get(program);
  if (names) return names;
  names = new Set();
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.includes('/connectors/src/devops/')) continue;
    ts.forEachChild(file, (node) => {
      if (ts.isInterfaceDeclaration(node) && node.name.text === PORT) {
        for (const member of node.members) {
          const name = member.name?.getText(file);
          if (name && !METADATA.has(name)) names.add(name);
        }
      }
    });
  }
  portMembers.set(program, names);
  return names;
}

/** A declaration of a GitPort member: in the interface, or in a class or object implementing it. */
function isGitPortMember(declaration, names, checker) {
  const owner = declaration.parent;
  if (!owner || !declaration.name || !names.has(declaration.name.getText())) return false;
  if (ts.isInterfaceDeclaration(owner)) {
    if (owner.name.text === PORT) return true;
    return (owner.heritageClauses ?? []).some((c) =>
      c.types.some((t) => implementsPort(checker.getTypeAtLocation(t), checker)),
    );
  }
  if (ts.isClassDeclaration(owner) || ts.isClassExpression(owner)) {
    return implementsPort(checker.getTypeAtLocation(owner), checker);
  }
  return false;
}

function implementsPort(type, checker, seen = new Set()) {
  if (!type || seen.has(type)) return false;
  seen.add(type);
  if (type.symbol?.name === PORT) return true;
  const bases = type.isClassOrInterface() ? checker.getBaseTypes(type) : [];
  const implemented = (type.symbol?.declarations ?? []).flatMap((d) =>
    (d.heritageClauses ?? []).flatMap((c) => c.types.map((t) => checker.getTypeAtLocation(t))),
  );
  return [...bases, ...implemented].some((base) => implementsPort(base, checker, seen));
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'git is read and written only through the configuration repository' },
    messages: {
      door: "'{{name}}' is a git method of the DevOps client: go through ConfigRepository (@aegis/connectors/repository).",
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) return {};
    const checker = services.program.getTypeChecker();
    const names = membersOf(services.program);
    return {
      MemberExpression(node) {
        if (node.computed || node.property.type !== 'Identifier') return;
        if (!names.has(node.property.name)) return;
        const symbol = checker.getSymbolAtLocation(
          services.esTreeNodeToTSNodeMap.get(node.property),
        );
        const declarations = symbol?.declarations ?? [];
        if (declarations.some((d) => isGitPortMember(d, names, checker))) {
          context.report({
            node: node.property,
            messageId: 'door',
            data: { name: node.property.name },
          });
        }
      },
    };
  },
};
