"""BlueZ's org.bluez.LEAdvertisingManager1 on an adapter of python3-dbusmock's bluez5 template (which has none).

Run inside the mock (bluez-driver.py sends it as the code of a mock method): install(self, objects, name, max)
adds the manager to /org/bluez/NAME with MAX advertising instances. It behaves as bluetoothd's
src/advertising.c (BlueZ 5.66) does, as far as a client can tell:
- RegisterAdvertisement(o, a{sv}): a second registration of the same (sender, path) is AlreadyExists; no free
  instance is NotPermitted "Maximum advertisements reached"; then the advertisement's properties are read from
  the caller with org.freedesktop.DBus.Properties.GetAll, and what bluetoothd's parsers refuse is Failed "Failed
  to parse advertisement." (Type not broadcast/peripheral, ManufacturerData not a{qv} of ay, MinInterval or
  MaxInterval outside 20 ms..10485 s or min > max, TxPower outside -127..20, flags set on a broadcast); data
  longer than a legacy advertisement's 31 bytes is the same Failed "Failed to parse advertisement." (bluetoothd
  refuses manufacturer data over its length limit while parsing, and a whole advertisement that does not fit when it
  builds it).
- UnregisterAdvertisement(o): unknown (sender, path) is DoesNotExist. After refuse_unregister(self, name) every
  call is Failed and the advertisement stays registered: not bluetoothd's behaviour, a stand-in for a call that
  fails on the way (no answer in time), which leaves the advertisement on the air. After
  delay_unregister(self, name, seconds) every call is answered that late (a slow bluetoothd; the whole mock waits).
- ActiveInstances and SupportedInstances (y) follow, with PropertiesChanged; a client that leaves the bus loses
  its advertisements (bluetoothd's disconnect watch).
- release(self, name) calls Release on every advertisement and forgets them, as bluetoothd does when the
  manager goes (the adapter removed, bluetoothd stopping).
Every registration's properties are kept in self.advertisements[name] for the test to decode.
"""
import inspect
import time

import dbus

MANAGER = 'org.bluez.LEAdvertisingManager1'
ADVERTISEMENT = 'org.bluez.LEAdvertisement1'
MAX_ADV_LEN = 31


def caller():
    """The unique name that sent the method call being handled (dbus-python keeps the message in a frame)."""
    for frame in inspect.stack():
        message = frame.frame.f_locals.get('message')
        if isinstance(message, dbus.lowlevel.MethodCallMessage):
            return message.get_sender()
    raise RuntimeError('no method call in progress')


def failed(text):
    return dbus.exceptions.DBusException(text, name='org.bluez.Error.Failed')


def parse(props):
    """What bluetoothd's parsers accept, as plain values; raises Failed as bluetoothd answers."""
    record = {}
    kind = props.get('Type')
    if kind is not None:
        if not isinstance(kind, dbus.String) or kind not in ('broadcast', 'peripheral'):
            raise failed('Failed to parse advertisement.')
        record['Type'] = str(kind)
    length = 0
    data = props.get('ManufacturerData')
    if data is not None:
        if not isinstance(data, dbus.Dictionary):
            raise failed('Failed to parse advertisement.')
        record['ManufacturerData'] = {}
        for company, value in data.items():
            if not isinstance(value, dbus.Array) or any(not isinstance(byte, dbus.Byte) for byte in value):
                raise failed('Failed to parse advertisement.')
            record['ManufacturerData'][int(company)] = bytes(value).hex().upper()
            length += 2 + 2 + len(value)
    for key in ('MinInterval', 'MaxInterval'):
        if key in props:
            value = props[key]
            if not isinstance(value, dbus.UInt32) or not 0x20 <= int(value / 0.625) <= 0xFFFFFF:
                raise failed('Failed to parse advertisement.')
            record[key] = int(value)
    if record.get('MinInterval', 0) > record.get('MaxInterval', 0) and 'MaxInterval' in record:
        raise failed('Failed to parse advertisement.')
    if 'TxPower' in props:
        value = props['TxPower']
        if not isinstance(value, dbus.Int16) or not -127 <= int(value) <= 20:
            raise failed('Failed to parse advertisement.')
        record['TxPower'] = int(value)
    if props.get('Discoverable') and record.get('Type') == 'broadcast':
        raise failed('Failed to parse advertisement.')
    if length > MAX_ADV_LEN:
        raise failed('Failed to parse advertisement.')
    return record


def install(mock, objects, name, maximum):
    path = '/org/bluez/' + name
    adapter = objects[path]
    registered = {}
    mock.advertisements = getattr(mock, 'advertisements', {})
    mock.advertisements[name] = []
    mock.advertising_registered = getattr(mock, 'advertising_registered', {})
    mock.advertising_registered[name] = registered

    def counts():
        adapter.UpdateProperties(MANAGER, {
            'ActiveInstances': dbus.Byte(len(registered)),
            'SupportedInstances': dbus.Byte(maximum - len(registered)),
        })

    def register(self, advertisement, options):
        sender = caller()
        key = (sender, str(advertisement))
        if key in registered:
            raise dbus.exceptions.DBusException('Already Exists', name='org.bluez.Error.AlreadyExists')
        if len(registered) >= maximum:
            raise dbus.exceptions.DBusException('Maximum advertisements reached', name='org.bluez.Error.NotPermitted')
        try:
            props = mock.connection.call_blocking(sender, advertisement, dbus.PROPERTIES_IFACE, 'GetAll', 's',
                                                  [ADVERTISEMENT], timeout=10)
        except dbus.exceptions.DBusException as error:
            raise failed('Failed to register advertisement') from error
        record = parse(props)
        record['sender'] = sender
        record['path'] = str(advertisement)
        registered[key] = record
        mock.advertisements[name].append(record)
        counts()

    def unregister(self, advertisement):
        key = (caller(), str(advertisement))
        time.sleep(getattr(mock, 'unregister_delay', {}).get(name, 0))
        if name in getattr(mock, 'unregister_refused', set()):
            raise failed('Unregistration refused by the test')
        if key not in registered:
            raise dbus.exceptions.DBusException('Does Not Exist', name='org.bluez.Error.DoesNotExist')
        del registered[key]
        counts()

    def gone(bus_name, old_owner, new_owner):
        if new_owner == '':
            for key in [key for key in registered if key[0] == bus_name]:
                del registered[key]
            counts()

    adapter.AddProperties(MANAGER, {
        'ActiveInstances': dbus.Byte(0),
        'SupportedInstances': dbus.Byte(maximum),
        'SupportedIncludes': dbus.Array(['tx-power', 'appearance', 'local-name'], signature='s'),
    })
    adapter.AddMethod(MANAGER, 'RegisterAdvertisement', 'oa{sv}', '', register)
    adapter.AddMethod(MANAGER, 'UnregisterAdvertisement', 'o', '', unregister)
    mock.connection.add_signal_receiver(gone, 'NameOwnerChanged', 'org.freedesktop.DBus', 'org.freedesktop.DBus',
                                        '/org/freedesktop/DBus')


def release(mock, name):
    registered = mock.advertising_registered.get(name, {})
    for sender, path in list(registered):
        mock.connection.call_blocking(sender, path, ADVERTISEMENT, 'Release', '', [], timeout=10)
        del registered[(sender, path)]
    return len(mock.advertisements.get(name, []))


def refuse_unregister(mock, name):
    mock.unregister_refused = getattr(mock, 'unregister_refused', set()) | {name}
    return 0


def delay_unregister(mock, name, seconds):
    mock.unregister_delay = getattr(mock, 'unregister_delay', {})
    mock.unregister_delay[name] = seconds
    return 0
