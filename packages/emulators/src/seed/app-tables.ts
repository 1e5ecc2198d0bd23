import { createHash } from 'node:crypto';

import { TablesClient } from '@aegis/connectors/tables';
import {
  clientAppsTableName,
  DEFAULT_EXIT_CODES,
  DEFAULT_PARTITION_KEY,
  formatRowKey,
  GENERAL_APPS_TABLE,
  type AppTableEntity,
} from '@aegis/domain';

/** Compact definition of a sample app; the seed expands it into a full table row. */
interface SampleApp {
  name: string;
  publisher: string;
  version: string;
  description: string;
  uri: string;
  install: string;
  installType: 'exe' | 'msi';
  uninstallType: 'exe' | 'msi';
  /** Uninstall arguments for exe uninstallers. */
  uninstall?: string;
  uninstallerLocation?: string;
  projectUrl: string;
  architecture?: 'x64' | 'x86';
  downloadType?: 'exe' | 'msi' | 'zip';
  experience?: 'system' | 'user';
  channel?: string;
  stream?: string;
  exitCode?: string;
  status?: 'Enabled' | 'Disabled';
  softwareName?: string;
}

const PF = 'C:\\Program Files';
const PF86 = 'C:\\Program Files (x86)';

/** Real applications with plausible versions, commands and download addresses. */
export const SAMPLE_APPS: readonly SampleApp[] = [
  {
    name: '7-Zip',
    publisher: 'Igor Pavlov',
    version: '24.09',
    description: 'Open-source file archiver with a high compression ratio.',
    uri: 'https://www.7-zip.org/a/7z2409-x64.msi',
    install: 'msiexec /i 7z2409-x64.msi /qn /norestart',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.7-zip.org',
    softwareName: '7-Zip 24.09 (x64 edition)',
  },
  {
    name: 'Google Chrome',
    publisher: 'Google LLC',
    version: '131.0.6778.86',
    description: 'Fast, secure web browser from Google.',
    uri: 'https://dl.google.com/dl/chrome/install/googlechromestandaloneenterprise64.msi',
    install: 'msiexec /i googlechromestandaloneenterprise64.msi /qn /norestart',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.google.com/chrome',
    channel: 'stable',
  },
  {
    name: 'Mozilla Firefox',
    publisher: 'Mozilla',
    version: '133.0',
    description: 'Free and open-source web browser.',
    uri: 'https://download.mozilla.org/?product=firefox-msi-latest-ssl&os=win64&lang=en-GB',
    install: 'msiexec /i "Firefox Setup 133.0.msi" /qn',
    installType: 'msi',
    uninstallType: 'exe',
    uninstall: '/S',
    uninstallerLocation: `${PF}\\Mozilla Firefox\\uninstall\\helper.exe`,
    projectUrl: 'https://www.mozilla.org/firefox',
    channel: 'release',
  },
  {
    name: 'Mozilla Firefox ESR',
    publisher: 'Mozilla',
    version: '128.5.0esr',
    description: 'Extended Support Release of Firefox for organisations.',
    uri: 'https://download.mozilla.org/?product=firefox-esr-msi-latest-ssl&os=win64&lang=en-GB',
    install: 'msiexec /i "Firefox Setup 128.5.0esr.msi" /qn',
    installType: 'msi',
    uninstallType: 'exe',
    uninstall: '/S',
    uninstallerLocation: `${PF}\\Mozilla Firefox\\uninstall\\helper.exe`,
    projectUrl: 'https://www.mozilla.org/firefox/enterprise',
    channel: 'esr',
  },
  {
    name: 'Visual Studio Code',
    publisher: 'Microsoft Corporation',
    version: '1.95.3',
    description: 'Lightweight source-code editor with debugging and Git support.',
    uri: 'https://update.code.visualstudio.com/1.95.3/win32-x64/stable',
    install: 'VSCodeSetup-x64-1.95.3.exe /VERYSILENT /NORESTART /MERGETASKS=!runcode',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/VERYSILENT /NORESTART',
    uninstallerLocation: `${PF}\\Microsoft VS Code\\unins000.exe`,
    projectUrl: 'https://code.visualstudio.com',
    channel: 'stable',
  },
  {
    name: 'Adobe Acrobat Reader',
    publisher: 'Adobe Inc.',
    version: '24.005.20320',
    description: 'View, print, sign and annotate PDF documents.',
    uri: 'https://ardownload2.adobe.com/pub/adobe/acrobat/win/AcrobatDC/2400520320/AcroRdrDCx642400520320_MUI.exe',
    install: 'AcroRdrDCx642400520320_MUI.exe /sAll /rs /msi EULA_ACCEPT=YES',
    installType: 'exe',
    uninstallType: 'msi',
    projectUrl: 'https://www.adobe.com/acrobat/pdf-reader.html',
    channel: 'continuous',
  },
  {
    name: 'Notepad++',
    publisher: 'Notepad++ Team',
    version: '8.7.1',
    description: 'Source-code editor and Notepad replacement.',
    uri: 'https://github.com/notepad-plus-plus/notepad-plus-plus/releases/download/v8.7.1/npp.8.7.1.Installer.x64.exe',
    install: 'npp.8.7.1.Installer.x64.exe /S',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/S',
    uninstallerLocation: `${PF}\\Notepad++\\uninstall.exe`,
    projectUrl: 'https://notepad-plus-plus.org',
  },
  {
    name: 'VLC media player',
    publisher: 'VideoLAN',
    version: '3.0.21',
    description: 'Free cross-platform multimedia player.',
    uri: 'https://get.videolan.org/vlc/3.0.21/win64/vlc-3.0.21-win64.msi',
    install: 'msiexec /i vlc-3.0.21-win64.msi /qn',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.videolan.org/vlc',
  },
  {
    name: 'Zoom Workplace',
    publisher: 'Zoom Video Communications, Inc.',
    version: '6.2.11.52206',
    description: 'Video meetings, chat and phone.',
    uri: 'https://zoom.us/client/6.2.11.52206/ZoomInstallerFull.msi?archType=x64',
    install: 'msiexec /i ZoomInstallerFull.msi /qn ZoomAutoUpdate=1',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://zoom.us',
  },
  {
    name: 'Microsoft Teams',
    publisher: 'Microsoft Corporation',
    version: '24295.605.3225.8804',
    description: 'Chat, meetings and collaboration for Microsoft 365.',
    uri: 'https://go.microsoft.com/fwlink/?linkid=2243204&clcid=0x409',
    install: 'teamsbootstrapper.exe -p',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '-x',
    uninstallerLocation: `${PF}\\WindowsApps\\teamsbootstrapper.exe`,
    projectUrl: 'https://www.microsoft.com/microsoft-teams',
    downloadType: 'exe',
  },
  {
    name: 'Git for Windows',
    publisher: 'The Git Development Community',
    version: '2.47.1',
    description: 'Git distributed version control with Git Bash.',
    uri: 'https://github.com/git-for-windows/git/releases/download/v2.47.1.windows.1/Git-2.47.1-64-bit.exe',
    install: 'Git-2.47.1-64-bit.exe /VERYSILENT /NORESTART /NOCANCEL /SP-',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/VERYSILENT /NORESTART',
    uninstallerLocation: `${PF}\\Git\\unins000.exe`,
    projectUrl: 'https://gitforwindows.org',
  },
  {
    name: 'PuTTY',
    publisher: 'Simon Tatham',
    version: '0.82',
    description: 'SSH and telnet client.',
    uri: 'https://the.earth.li/~sgtatham/putty/0.82/w64/putty-64bit-0.82-installer.msi',
    install: 'msiexec /i putty-64bit-0.82-installer.msi /qn',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.chiark.greenend.org.uk/~sgtatham/putty',
  },
  {
    name: 'WinSCP',
    publisher: 'Martin Prikryl',
    version: '6.3.6',
    description: 'SFTP, FTP, WebDAV and SCP client.',
    uri: 'https://winscp.net/download/WinSCP-6.3.6-Setup.exe',
    install: 'WinSCP-6.3.6-Setup.exe /VERYSILENT /ALLUSERS /NORESTART',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/VERYSILENT /NORESTART',
    uninstallerLocation: `${PF86}\\WinSCP\\unins000.exe`,
    projectUrl: 'https://winscp.net',
    architecture: 'x86',
  },
  {
    name: 'Python 3.12',
    publisher: 'Python Software Foundation',
    version: '3.12.8',
    description: 'Python programming language runtime.',
    uri: 'https://www.python.org/ftp/python/3.12.8/python-3.12.8-amd64.exe',
    install: 'python-3.12.8-amd64.exe /quiet InstallAllUsers=1 PrependPath=1',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/quiet /uninstall',
    uninstallerLocation: 'C:\\ProgramData\\Package Cache\\python-3.12.8-amd64.exe',
    projectUrl: 'https://www.python.org',
  },
  {
    name: 'Node.js LTS',
    publisher: 'OpenJS Foundation',
    version: '22.12.0',
    description: 'JavaScript runtime built on the V8 engine.',
    uri: 'https://nodejs.org/dist/v22.12.0/node-v22.12.0-x64.msi',
    install: 'msiexec /i node-v22.12.0-x64.msi /qn',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://nodejs.org',
    channel: 'lts',
    stream: '22',
  },
  {
    name: 'Microsoft Edge',
    publisher: 'Microsoft Corporation',
    version: '131.0.2903.70',
    description: 'Chromium-based web browser from Microsoft.',
    uri: 'https://msedge.sf.dl.delivery.mp.microsoft.com/filestreamingservice/files/MicrosoftEdgeEnterpriseX64.msi',
    install: 'msiexec /i MicrosoftEdgeEnterpriseX64.msi /qn /norestart',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.microsoft.com/edge/business',
    channel: 'stable',
  },
  {
    name: 'Microsoft PowerToys',
    publisher: 'Microsoft Corporation',
    version: '0.86.0',
    description: 'Utilities for power users to tune Windows.',
    uri: 'https://github.com/microsoft/PowerToys/releases/download/v0.86.0/PowerToysSetup-0.86.0-x64.exe',
    install: 'PowerToysSetup-0.86.0-x64.exe -silent',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '-uninstall -silent',
    uninstallerLocation: 'C:\\ProgramData\\Package Cache\\PowerToysSetup-0.86.0-x64.exe',
    projectUrl: 'https://learn.microsoft.com/windows/powertoys',
  },
  {
    name: 'Slack',
    publisher: 'Slack Technologies',
    version: '4.41.105',
    description: 'Team messaging and collaboration.',
    uri: 'https://downloads.slack-edge.com/desktop-releases/windows/x64/4.41.105/slack-standalone-4.41.105.0.msi',
    install: 'msiexec /i slack-standalone-4.41.105.0.msi /qn',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://slack.com',
  },
  {
    name: 'Cisco Webex',
    publisher: 'Cisco Systems, Inc.',
    version: '44.10.1.31028',
    description: 'Video conferencing and team messaging.',
    uri: 'https://binaries.webex.com/WebexDesktop-Win-64-Gold/Webex.msi',
    install: 'msiexec /i Webex.msi /qn ACCEPT_EULA=TRUE ALLUSERS=1',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.webex.com',
    status: 'Disabled',
  },
  {
    name: 'Greenshot',
    publisher: 'Greenshot',
    version: '1.2.10.6',
    description: 'Screenshot tool for Windows.',
    uri: 'https://github.com/greenshot/greenshot/releases/download/Greenshot-RELEASE-1.2.10.6/Greenshot-INSTALLER-1.2.10.6-RELEASE.exe',
    install: 'Greenshot-INSTALLER-1.2.10.6-RELEASE.exe /VERYSILENT /NORESTART',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/VERYSILENT',
    uninstallerLocation: `${PF}\\Greenshot\\unins000.exe`,
    projectUrl: 'https://getgreenshot.org',
  },
  {
    name: 'KeePassXC',
    publisher: 'KeePassXC Team',
    version: '2.7.9',
    description: 'Cross-platform password manager.',
    uri: 'https://github.com/keepassxreboot/keepassxc/releases/download/2.7.9/KeePassXC-2.7.9-Win64.msi',
    install: 'msiexec /i KeePassXC-2.7.9-Win64.msi /qn',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://keepassxc.org',
  },
  {
    name: 'Paint.NET',
    publisher: 'dotPDN LLC',
    version: '5.1.1',
    description: 'Image and photo editing software.',
    uri: 'https://github.com/paintdotnet/release/releases/download/v5.1.1/paint.net.5.1.1.winmsi.x64.zip',
    install: 'msiexec /i paint.net.5.1.1.winmsi.x64.msi /qn',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.getpaint.net',
    downloadType: 'zip',
  },
  {
    name: 'GIMP',
    publisher: 'The GIMP Team',
    version: '2.10.38',
    description: 'GNU image manipulation program.',
    uri: 'https://download.gimp.org/gimp/v2.10/windows/gimp-2.10.38-setup-1.exe',
    install: 'gimp-2.10.38-setup-1.exe /VERYSILENT /NORESTART /ALLUSERS',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/VERYSILENT /NORESTART',
    uninstallerLocation: `${PF}\\GIMP 2\\uninst\\unins000.exe`,
    projectUrl: 'https://www.gimp.org',
  },
  {
    name: 'Audacity',
    publisher: 'Audacity Team',
    version: '3.7.0',
    description: 'Multi-track audio editor and recorder.',
    uri: 'https://github.com/audacity/audacity/releases/download/Audacity-3.7.0/audacity-win-3.7.0-64bit.exe',
    install: 'audacity-win-3.7.0-64bit.exe /VERYSILENT /NORESTART',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/VERYSILENT',
    uninstallerLocation: `${PF}\\Audacity\\unins000.exe`,
    projectUrl: 'https://www.audacityteam.org',
  },
  {
    name: 'FileZilla Client',
    publisher: 'Tim Kosse',
    version: '3.68.1',
    description: 'FTP, FTPS and SFTP client.',
    uri: 'https://download.filezilla-project.org/client/FileZilla_3.68.1_win64-setup.exe',
    install: 'FileZilla_3.68.1_win64-setup.exe /S /user=all',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/S',
    uninstallerLocation: `${PF}\\FileZilla FTP Client\\uninstall.exe`,
    projectUrl: 'https://filezilla-project.org',
  },
  {
    name: 'Wireshark',
    publisher: 'The Wireshark developer community',
    version: '4.4.2',
    description: 'Network protocol analyser.',
    uri: 'https://2.na.dl.wireshark.org/win64/Wireshark-4.4.2-x64.exe',
    install: 'Wireshark-4.4.2-x64.exe /S /desktopicon=no',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/S',
    uninstallerLocation: `${PF}\\Wireshark\\uninstall-wireshark.exe`,
    projectUrl: 'https://www.wireshark.org',
    status: 'Disabled',
  },
  {
    name: 'Microsoft Visual C++ Redistributable',
    publisher: 'Microsoft Corporation',
    version: '14.42.34433',
    description: 'Runtime components of Visual C++ libraries.',
    uri: 'https://aka.ms/vs/17/release/vc_redist.x64.exe',
    install: 'vc_redist.x64.exe /install /quiet /norestart',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/uninstall /quiet /norestart',
    uninstallerLocation: 'C:\\ProgramData\\Package Cache\\vc_redist.x64.exe',
    projectUrl: 'https://learn.microsoft.com/cpp/windows/latest-supported-vc-redist',
  },
  {
    name: 'Eclipse Temurin JRE 21',
    publisher: 'Eclipse Adoptium',
    version: '21.0.5.11',
    description: 'OpenJDK Java runtime from Eclipse Adoptium.',
    uri: 'https://github.com/adoptium/temurin21-binaries/releases/download/jdk-21.0.5%2B11/OpenJDK21U-jre_x64_windows_hotspot_21.0.5_11.msi',
    install:
      'msiexec /i OpenJDK21U-jre_x64_windows_hotspot_21.0.5_11.msi /qn ADDLOCAL=FeatureMain,FeatureEnvironment',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://adoptium.net',
    stream: '21',
  },
  {
    name: 'Microsoft Power BI Desktop',
    publisher: 'Microsoft Corporation',
    version: '2.138.1452.0',
    description: 'Business analytics and report authoring.',
    uri: 'https://download.microsoft.com/download/8/8/0/880BCA75-79DD-466A-927D-1ABF1F5454B0/PBIDesktopSetup_x64.exe',
    install: 'PBIDesktopSetup_x64.exe -quiet -norestart ACCEPT_EULA=1',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '-uninstall -quiet',
    uninstallerLocation: 'C:\\ProgramData\\Package Cache\\PBIDesktopSetup_x64.exe',
    projectUrl: 'https://powerbi.microsoft.com/desktop',
  },
  {
    name: 'Microsoft Azure Storage Explorer',
    publisher: 'Microsoft Corporation',
    version: '1.36.2',
    description: 'Manage Azure storage accounts and Azurite.',
    uri: 'https://github.com/microsoft/AzureStorageExplorer/releases/download/v1.36.2/StorageExplorer-windows-x64.exe',
    install: 'StorageExplorer-windows-x64.exe /VERYSILENT /NORESTART /ALLUSERS',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/VERYSILENT /NORESTART',
    uninstallerLocation: `${PF}\\Microsoft Azure Storage Explorer\\unins000.exe`,
    projectUrl: 'https://azure.microsoft.com/products/storage/storage-explorer',
  },
  {
    name: 'Citrix Workspace',
    publisher: 'Citrix Systems, Inc.',
    version: '24.11.0.97',
    description: 'Client for Citrix virtual apps and desktops.',
    uri: 'https://downloadplugins.citrix.com/ReceiverUpdates/Prod/Receiver/Win/CitrixWorkspaceApp24.11.0.97.exe',
    install: 'CitrixWorkspaceApp.exe /silent /noreboot /AutoUpdateCheck=disabled',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/silent /uninstall',
    uninstallerLocation: `${PF86}\\Citrix\\Citrix WorkSpace 2411\\TrolleyExpress.exe`,
    projectUrl: 'https://www.citrix.com/products/workspace-app',
    architecture: 'x86',
    channel: 'current',
  },
  {
    name: 'TeamViewer',
    publisher: 'TeamViewer Germany GmbH',
    version: '15.60.3',
    description: 'Remote access and support.',
    uri: 'https://download.teamviewer.com/download/version_15x/TeamViewer_MSI64.zip',
    install: 'msiexec /i TeamViewer_Full.msi /qn',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.teamviewer.com',
    downloadType: 'zip',
  },
  {
    name: 'Foxit PDF Reader',
    publisher: 'Foxit Software Inc.',
    version: '2024.4.0.27683',
    description: 'Lightweight PDF reader.',
    uri: 'https://cdn01.foxitsoftware.com/product/reader/desktop/win/2024.4.0/FoxitPDFReader20244_enu_Setup_x64.msi',
    install: 'msiexec /i FoxitPDFReader20244_enu_Setup_x64.msi /qn',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://www.foxit.com/pdf-reader',
    status: 'Disabled',
  },
  {
    name: 'Spotify',
    publisher: 'Spotify AB',
    version: '1.2.52.442',
    description: 'Music streaming client.',
    uri: 'https://download.scdn.co/SpotifySetup.exe',
    install: 'SpotifySetup.exe /silent',
    installType: 'exe',
    uninstallType: 'exe',
    uninstall: '/uninstall /silent',
    uninstallerLocation: '%APPDATA%\\Spotify\\Spotify.exe',
    projectUrl: 'https://www.spotify.com',
    experience: 'user',
    architecture: 'x86',
  },
  {
    name: 'Microsoft Remote Desktop',
    publisher: 'Microsoft Corporation',
    version: '1.2.5910.0',
    description: 'Client for Azure Virtual Desktop and Windows 365.',
    uri: 'https://go.microsoft.com/fwlink/?linkid=2139369',
    install: 'msiexec /i RemoteDesktop_1.2.5910.0_x64.msi /qn ALLUSERS=1',
    installType: 'msi',
    uninstallType: 'msi',
    projectUrl: 'https://learn.microsoft.com/azure/virtual-desktop/users/connect-windows',
    channel: 'public',
  },
  {
    name: 'Dell Command Update',
    publisher: 'Dell Inc.',
    version: '5.4.0',
    description: 'Driver, BIOS and firmware updates for Dell devices.',
    uri: 'https://dl.dell.com/FOLDER11563484M/1/Dell-Command-Update-Windows-Universal-Application_P83K5_WIN_5.4.0_A00.EXE',
    install: 'Dell-Command-Update-Windows-Universal-Application_P83K5_WIN_5.4.0_A00.EXE /s',
    installType: 'exe',
    uninstallType: 'msi',
    projectUrl: 'https://www.dell.com/support/kbdoc/000177325',
  },
];

/** A deterministic SHA-256-shaped checksum, so the sample looks real and never changes. */
function checksum(seed: string): string {
  return createHash('sha256').update(seed).digest('hex').toUpperCase();
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Expands a sample app into a full app deployment row. */
export function sampleAppRow(app: SampleApp, rowKey: string): AppTableEntity {
  const msi = app.uninstallType === 'msi';
  const architecture = app.architecture ?? 'x64';
  return {
    PartitionKey: DEFAULT_PARTITION_KEY,
    RowKey: rowKey,
    AppName: app.name,
    Architecture: architecture,
    Channel: app.channel ?? '',
    CheckSum: architecture === 'x86' ? checksum(`${app.name}@${app.version}/x86`) : '',
    CheckSum64: architecture === 'x64' ? checksum(`${app.name}@${app.version}/x64`) : '',
    Description: app.description,
    Install: app.install,
    Publisher: app.publisher,
    SoftwareName: app.softwareName ?? app.name,
    Stream: app.stream ?? '',
    InstallFileType: app.installType,
    UninstallFileType: app.uninstallType,
    URI: app.uri,
    DownloadFileType: app.downloadType ?? app.installType,
    Uninstall: msi ? 'autouninstall' : (app.uninstall ?? '/S'),
    UninstallerLocation: msi ? '' : (app.uninstallerLocation ?? ''),
    Version: app.version,
    ExitCode: app.exitCode ?? DEFAULT_EXIT_CODES,
    AssignmentScopeAvailable: 'All Users',
    AssignmentScopeRequired: 'All Devices',
    ProjectURL: app.projectUrl,
    TableVersion: '1.0',
    IconPath: `https://aegis-msp.example/icons/${slug(app.name)}.png`,
    InstallExperience: app.experience ?? 'system',
    Status: app.status ?? 'Enabled',
  };
}

/** The rows of GENWorkstationApps: every sample app, RowKeys 0001… in order. */
export function generalAppRows(): AppTableEntity[] {
  return SAMPLE_APPS.map((app, i) => sampleAppRow(app, formatRowKey(i + 1)));
}

/** Sample clients with app tables, and the apps each one deploys (by name). */
export const SAMPLE_CLIENT_APP_TABLES: Readonly<Record<string, readonly string[]>> = {
  ABC: [
    '7-Zip',
    'Google Chrome',
    'Adobe Acrobat Reader',
    'Microsoft Teams',
    'VLC media player',
    'Zoom Workplace',
  ],
  CON: [
    '7-Zip',
    'Mozilla Firefox ESR',
    'Notepad++',
    'Microsoft Edge',
    'Citrix Workspace',
    'Adobe Acrobat Reader',
    'KeePassXC',
    'Dell Command Update',
  ],
  FAB: [
    'Google Chrome',
    'Visual Studio Code',
    'Git for Windows',
    'Node.js LTS',
    'Python 3.12',
    'PuTTY',
    'WinSCP',
    'Wireshark',
    'Microsoft PowerToys',
  ],
  NWD: ['7-Zip', 'Google Chrome', 'Microsoft Teams', 'Slack', 'Microsoft Power BI Desktop'],
  // app deployment only, no configuration captured (seed/sample-config APP_DEPLOY_ONLY_CLIENTS)
  WGB: ['Microsoft Edge', 'Microsoft Teams', 'Adobe Acrobat Reader'],
};

/** The rows of a sample client's table: its apps copied from the general table, RowKeys 0001…. */
export function clientAppRows(clientCode: string): AppTableEntity[] {
  const names = SAMPLE_CLIENT_APP_TABLES[clientCode] ?? [];
  return names.flatMap((name, i) => {
    const app = SAMPLE_APPS.find((candidate) => candidate.name === name);
    return app ? [sampleAppRow(app, formatRowKey(i + 1))] : [];
  });
}

export interface SeedAppTablesResult {
  tables: string[];
  rows: number;
}

/**
 * Creates GENWorkstationApps and the sample clients' '{CODE}WorkstationApps' tables with their
 * rows. Tables that already exist are left as they are, so user edits survive a restart.
 */
export async function seedAppTables(connectionString: string): Promise<SeedAppTablesResult> {
  const client = new TablesClient({ connectionString });
  const plan: [string, AppTableEntity[]][] = [
    [GENERAL_APPS_TABLE, generalAppRows()],
    ...Object.keys(SAMPLE_CLIENT_APP_TABLES).map((code): [string, AppTableEntity[]] => [
      clientAppsTableName(code),
      clientAppRows(code),
    ]),
  ];
  const seeded: string[] = [];
  let rows = 0;
  for (const [table, entities] of plan) {
    const created = await client.createTable(table);
    if (created.outcome === 'conflict') continue;
    const result = await client.upsertEntities(table, entities);
    if (result.failed.length > 0) {
      throw new Error(`Seeding ${table} failed: ${result.failed[0]?.message ?? ''}`);
    }
    seeded.push(table);
    rows += result.succeeded;
  }
  return { tables: seeded, rows };
}
