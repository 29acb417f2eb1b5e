// The services the sandbox does not emulate: naming one throws a ReferenceError that says so,
// rather than "X is not defined", which reads as the user's own mistake. A script may still
// define a global of the same name.

var notOffered = ['UrlFetchApp', 'MailApp', 'GmailApp', 'DriveApp', 'DocumentApp', 'SlidesApp', 'FormApp', 'CalendarApp',
  'ContactsApp', 'PeopleApp', 'GroupsApp', 'LanguageApp', 'Maps', 'ScriptApp', 'CardService', 'ConferenceDataService',
  'DataStudioApp', 'Charts', 'XmlService', 'Jdbc', 'Browser', 'Ui', 'SitesApp', 'AdminDirectory', 'Drive', 'Sheets', 'Gmail',
  'Calendar', 'Docs', 'Slides', 'YouTube', 'Analytics', 'BigQuery', 'Tasks', 'ObjectStore', 'Intl'];

notOffered.forEach(function (name) {
  Object.defineProperty(global, name, {
    configurable: true,
    enumerable: false,
    get: function () {
      if (name === 'Intl') {
        throw new ReferenceError('Intl is not offered by the Loupe sandbox\'s JavaScript engine: format dates with Utilities.formatDate.');
      }
      throw new ReferenceError(name + ' is not offered by the Loupe sandbox, which emulates Logger, console, Utilities, ' +
        'Session, PropertiesService, CacheService, LockService, ContentService, HtmlService and SpreadsheetApp; ' +
        'run this script in Apps Script to use ' + name + '.');
    },
    set: function (v) {
      Object.defineProperty(global, name, {value: v, writable: true, configurable: true, enumerable: false});
    }
  });
});
