export {
  CMDLET_EXTRACTS,
  bindParameters,
  cmdletContract,
  type CmdletContract,
  type CmdletExtract,
  type CmdletParameter,
  type CmdletService,
  type ParameterBinding,
} from './cmdlets';
