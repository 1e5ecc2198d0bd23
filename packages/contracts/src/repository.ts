import { refNameProblem, repositoryPathProblem } from '@aegis/domain';
import { z } from 'zod';

/** A repository path from a request: refused with 400 before any call to Azure DevOps. */
export const repositoryPathSchema = (maxLength: number) =>
  z
    .string()
    .min(1)
    .max(maxLength)
    .superRefine((path, context) => {
      const problem = repositoryPathProblem(path);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });

/** A branch or tag name from a request, as git accepts it (`git check-ref-format`). */
export const refNameSchema = (maxLength: number) =>
  z
    .string()
    .min(1)
    .max(maxLength)
    .superRefine((name, context) => {
      const problem = refNameProblem(name);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });
