// The extractor's reading of Microsoft's CSDL on a small document shaped like Graph's metadata:
// what a path template addresses, the methods OData's conventions give it, and which properties of
// a type (base and derived types included) are navigation properties.
import { describe, expect, it } from 'vitest';

import {
  addCsdl,
  conventionalMethods,
  describeType,
  propertyShapes,
  resolve,
  type Model,
} from './csdl-model';

const CSDL = `<?xml version="1.0" encoding="utf-8"?>
<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">
  <edmx:DataServices>
    <Schema Namespace="microsoft.graph" Alias="graph" xmlns="http://docs.oasis-open.org/odata/ns/edm">
      <EntityType Name="entity" Abstract="true">
        <Key><PropertyRef Name="id" /></Key>
        <Property Name="id" Type="Edm.String" Nullable="false" />
      </EntityType>
      <EntityType Name="policyRoot" BaseType="graph.entity">
        <NavigationProperty Name="authorizationPolicy" Type="Collection(graph.authorizationPolicy)" ContainsTarget="true" />
        <NavigationProperty Name="deviceRegistrationPolicy" Type="graph.deviceRegistrationPolicy" ContainsTarget="true" />
      </EntityType>
      <EntityType Name="authorizationPolicy" BaseType="graph.entity">
        <Property Name="allowedToUseSSPR" Type="Edm.Boolean" />
      </EntityType>
      <EntityType Name="deviceRegistrationPolicy" BaseType="graph.entity">
        <Property Name="userDeviceQuota" Type="Edm.Int32" />
      </EntityType>
      <EntityType Name="deviceCompliancePolicy" BaseType="graph.entity">
        <Property Name="displayName" Type="Edm.String" />
        <NavigationProperty Name="scheduledActionsForRule" Type="Collection(graph.scheduledAction)" ContainsTarget="true" />
      </EntityType>
      <EntityType Name="windows10CompliancePolicy" BaseType="graph.deviceCompliancePolicy">
        <Property Name="passwordRequired" Type="Edm.Boolean" />
        <NavigationProperty Name="deviceStatuses" Type="Collection(graph.scheduledAction)" ContainsTarget="true" />
      </EntityType>
      <EntityType Name="scheduledAction" BaseType="graph.entity" />
      <EntityType Name="directoryRole" BaseType="graph.entity">
        <NavigationProperty Name="members" Type="Collection(graph.entity)" />
      </EntityType>
      <EntityType Name="deviceManagement" BaseType="graph.entity">
        <Property Name="settings" Type="graph.deviceManagementSettings" />
        <NavigationProperty Name="deviceCompliancePolicies" Type="Collection(graph.deviceCompliancePolicy)" ContainsTarget="true" />
      </EntityType>
      <EnumType Name="sharingCapabilities">
        <Member Name="disabled" Value="0" />
        <Member Name="externalUserSharingOnly" Value="1" />
      </EnumType>
      <ComplexType Name="idleSessionSignOut">
        <Property Name="isEnabled" Type="Edm.Boolean" />
        <Property Name="warnAfterInSeconds" Type="Edm.Int64" />
      </ComplexType>
      <EntityType Name="sharepointSettings" BaseType="graph.entity">
        <Property Name="sharingCapability" Type="graph.sharingCapabilities" />
        <Property Name="idleSessionSignOut" Type="graph.idleSessionSignOut" />
        <Property Name="sharingAllowedDomainList" Type="Collection(Edm.String)" />
        <Property Name="siteCreationDefaultManagedPath" Type="Edm.String" Nullable="false" />
      </EntityType>
      <EntityContainer Name="GraphService">
        <Singleton Name="policies" Type="microsoft.graph.policyRoot" />
        <Singleton Name="deviceManagement" Type="microsoft.graph.deviceManagement" />
        <EntitySet Name="directoryRoles" EntityType="microsoft.graph.directoryRole" />
      </EntityContainer>
    </Schema>
  </edmx:DataServices>
</edmx:Edmx>`;

function model(): Model {
  const m: Model = {
    types: new Map(),
    enums: new Map(),
    complexTypes: new Map(),
    roots: new Map(),
  };
  addCsdl(m, CSDL);
  return m;
}

describe('what a path addresses, from the CSDL', () => {
  it.each([
    ['/policies/authorizationPolicy', 'collection', ['GET', 'POST']],
    ['/policies/authorizationPolicy/{id}', 'entity', ['GET', 'PATCH', 'DELETE']],
    ['/policies/deviceRegistrationPolicy', 'singleton', ['GET', 'PATCH']],
    [
      '/deviceManagement/deviceCompliancePolicies/{id}/scheduledActionsForRule',
      'collection',
      ['GET', 'POST'],
    ],
    ['/deviceManagement/settings', 'property', ['GET']],
    ['/directoryRoles/{id}/members', 'collection', ['GET']],
    ['/directoryRoles/{id}/members/$ref', 'reference', ['POST']],
    ['/directoryRoles/{id}/members/{id}/$ref', 'reference', ['DELETE']],
  ] as const)('%s is a %s: %j', (template, kind, methods) => {
    const segment = resolve(model(), template);
    expect(segment?.kind).toBe(kind);
    expect(conventionalMethods(segment!, template)).toEqual(methods);
  });

  it('a segment the metadata does not have, or a key on a singleton, resolves to nothing', () => {
    expect(resolve(model(), '/policies/forms')).toBeUndefined();
    expect(resolve(model(), '/policies/deviceRegistrationPolicy/{id}')).toBeUndefined();
    expect(resolve(model(), '/nothing')).toBeUndefined();
  });
});

describe('structural and navigation properties of a type', () => {
  it('includes base types, lists derived types’ navigation apart, and prefers the type mapping', () => {
    const described = describeType(model(), 'microsoft.graph.deviceCompliancePolicy', undefined);
    expect(described).toEqual({
      structural: ['displayName', 'id'],
      navigation: ['scheduledActionsForRule'],
      derivedNavigation: ['deviceStatuses'],
    });
    const mapped = describeType(model(), 'microsoft.graph.deviceCompliancePolicy', {
      deviceCompliancePolicy: {
        properties: ['displayName', 'version'],
        navigationProperties: ['assignments', 'scheduledActionsForRule'],
      },
    });
    expect(mapped.structural).toEqual(['displayName', 'id', 'version']);
    expect(mapped.navigation).toEqual(['assignments', 'scheduledActionsForRule']);
  });
});

describe('what a write may send for each property of a type', () => {
  it('gives primitives, enum members, complex members, collections and non-nullables', () => {
    expect(propertyShapes(model(), 'microsoft.graph.sharepointSettings')).toEqual({
      id: { type: 'Edm.String', required: true },
      idleSessionSignOut: {
        type: 'microsoft.graph.idleSessionSignOut',
        properties: {
          isEnabled: { type: 'Edm.Boolean' },
          warnAfterInSeconds: { type: 'Edm.Int64' },
        },
      },
      sharingAllowedDomainList: { type: 'Edm.String', collection: true },
      sharingCapability: {
        type: 'microsoft.graph.sharingCapabilities',
        enum: ['disabled', 'externalUserSharingOnly'],
      },
      siteCreationDefaultManagedPath: { type: 'Edm.String', required: true },
    });
  });
});
