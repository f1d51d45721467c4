#!/usr/bin/python3
"""Drives python3-dbusmock's bluez5 template (a BlueZ stand-in) on a test's own bus, as bluetoothd would behave.

Usage: bluez-driver.py BUS_ADDRESS. Reads one JSON command per line on stdin and answers one JSON line on
stdout: {"ok": true, "value": ...} or {"ok": false, "error": "..."}. Commands ("op"):
  adapter NAME                 add adapter /org/bluez/NAME (powered)
  remove_adapter NAME          remove it (InterfacesRemoved)
  power NAME ON                set its Powered property (PropertiesChanged, as bluetoothd sends it)
  discovering NAME             the adapter's Discovering property
  filter NAME                  the discovery filter the client set, as {key: value}
  device NAME ADDRESS          add a device under the adapter; returns its object path
  remove_device NAME PATH      remove it (InterfacesRemoved)
  advertise PATH RSSI DATA [COMPANY]  one advertisement: RSSI and ManufacturerData {COMPANY (default 0x004C): DATA
                               (hex)} in one PropertiesChanged of org.bluez.Device1
  rssi PATH RSSI               an RSSI change alone
  flood NAME COUNT RATE SECONDS  COUNT iBeacons (UUID E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major 7, minor 1…COUNT)
                               under the adapter, each advertising RATE times a second for SECONDS, sent from the
                               mock's own connection (so they come from org.bluez's owner); returns the count sent
  advertising NAME MAX         give the adapter BlueZ's LEAdvertisingManager1 with MAX instances
                               (advertising-manager.py: it reads and checks what the client registers)
  advertisements NAME          every advertisement registered on it so far, as bluetoothd read it:
                               [{sender, path, Type, ManufacturerData: {company: hex}, MinInterval, MaxInterval}]
  instances NAME               [ActiveInstances, SupportedInstances]
  release NAME                 call Release on each registered advertisement and forget it (as bluetoothd
                               does when the manager goes)
  refuse_unregister NAME       every later UnregisterAdvertisement on it fails and leaves the advertisement
  delay_unregister NAME SECONDS  every later UnregisterAdvertisement on it is answered SECONDS late
"""
import pathlib
import json
import sys

import dbus

BUS = dbus.bus.BusConnection(sys.argv[1])
MOCK = 'org.freedesktop.DBus.Mock'

FLOOD = '''
def flood(mock, adapter, count, rate, seconds):
    import time
    import dbus
    import dbus.lowlevel
    uuid = bytes.fromhex('E2C56DB5DFFB48D2B060D0F5A71096E0')
    paths = ['/org/bluez/%s/dev_F0_00_00_00_%02X_%02X' % (adapter, i // 256, i % 256) for i in range(count)]
    frames = [dbus.Array(list(bytes([0x02, 0x15]) + uuid + bytes([0, 7, (i + 1) // 256, (i + 1) % 256, 0xC5])),
                         signature='y') for i in range(count)]
    interval = 1.0 / (rate * count)
    start = time.monotonic()
    sent = 0
    total = int(count * rate * seconds)
    while sent < total:
        delay = start + sent * interval - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        i = sent % count
        signal = dbus.lowlevel.SignalMessage(paths[i], 'org.freedesktop.DBus.Properties', 'PropertiesChanged')
        signal.append('org.bluez.Device1',
                      dbus.Dictionary({'RSSI': dbus.Int16(-60 - (sent % 7)),
                                       'ManufacturerData': dbus.Dictionary({dbus.UInt16(0x004C): frames[i]},
                                                                           signature='qv')}, signature='sv'),
                      dbus.Array([], signature='s'), signature='sa{sv}as')
        mock.connection.send_message(signal)
        sent += 1
    return sent
ret = flood(self, *args)
'''


MANAGER_CODE = (pathlib.Path(__file__).parent / 'advertising-manager.py').read_text()


def mock_call(name, signature, code, *args):
    """Runs `code` inside the mock (a method of its root object, added again at each call: the mock may have been
    restarted since) and returns its `ret`."""
    proxy('/', MOCK).AddMethod('org.bluez.Mock', name, signature, 'v', code)
    return getattr(proxy('/', 'org.bluez.Mock'), name)(*args, timeout=60)


def in_namespace(expression):
    """Mock method code that runs advertising-manager.py in a namespace of its own (the mock's exec gives its
    functions the mock's globals, not the code's) and returns `expression` evaluated there."""
    return ('namespace = {}\nexec(%r, namespace)\nnamespace.update(self=self, objects=objects, args=args)\n'
            'ret = eval(%r, namespace)\n') % (MANAGER_CODE, expression)


def proxy(path, interface):
    return dbus.Interface(BUS.get_object('org.bluez', path), interface)


def changed(path, properties):
    """One PropertiesChanged of org.bluez.Device1, sent by the mock (the owner of org.bluez), as bluetoothd sends
    an advertisement's RSSI and data together. (The mock's UpdateProperties cannot carry a dictionary.)"""
    return proxy(path, MOCK).EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [
        'org.bluez.Device1', dbus.Dictionary(properties, signature='sv'), dbus.Array([], signature='s')])


def run(command):
    op = command['op']
    if op == 'adapter':
        return str(proxy('/', 'org.bluez.Mock').AddAdapter(command['name'], 'waymark-test'))
    if op == 'remove_adapter':
        return proxy('/', 'org.bluez.Mock').RemoveAdapter(command['name'])
    if op == 'power':
        return proxy('/org/bluez/' + command['name'], dbus.PROPERTIES_IFACE).Set(
            'org.bluez.Adapter1', 'Powered', dbus.Boolean(command['on']))
    if op == 'discovering':
        return bool(proxy('/org/bluez/' + command['name'], dbus.PROPERTIES_IFACE).Get(
            'org.bluez.Adapter1', 'Discovering'))
    if op == 'filter':
        value = proxy('/org/bluez/' + command['name'], dbus.PROPERTIES_IFACE).Get(
            'org.bluez.Adapter1', 'DiscoveryFilter')
        return {str(key): (bool(item) if isinstance(item, dbus.Boolean) else str(item)) for key, item in value.items()}
    if op == 'device':
        return str(proxy('/', 'org.bluez.Mock').AddDevice(command['name'], command['address'], 'beacon'))
    if op == 'remove_device':
        return proxy('/org/bluez/' + command['name'], 'org.bluez.Adapter1').RemoveDevice(
            dbus.ObjectPath(command['path']))
    if op == 'advertise':
        data = dbus.Array(list(bytes.fromhex(command['data'])), signature='y')
        company = dbus.UInt16(command.get('company', 0x004C))
        return changed(command['path'], {
            'RSSI': dbus.Int16(command['rssi']),
            'ManufacturerData': dbus.Dictionary({company: data}, signature='qv'),
        })
    if op == 'rssi':
        return changed(command['path'], {'RSSI': dbus.Int16(command['rssi'])})
    if op == 'flood':
        root = proxy('/', MOCK)
        if not getattr(run, 'flood_added', False):
            root.AddMethod('org.bluez.Mock', 'Flood', 'sidd', 'i', FLOOD)
            run.flood_added = True
        return int(proxy('/', 'org.bluez.Mock').Flood(command['name'], command['count'], float(command['rate']),
                                                     float(command['seconds']), timeout=3600))
    if op == 'advertising':
        return mock_call('InstallAdvertising', 'si', in_namespace('install(self, objects, *args) or 0'),
                         command['name'], command['max'])
    if op == 'advertisements':
        code = "ret = dbus.Array([dbus.Dictionary({str(k): (dbus.Dictionary({str(c): h for c, h in v.items()}, signature='sv') if isinstance(v, dict) else v) for k, v in r.items()}, signature='sv') for r in getattr(self, 'advertisements', {}).get(args[0], [])], signature='v')"
        value = mock_call('Advertisements', 's', code, command['name'])
        return json.loads(json.dumps(value, default=lambda item: dict(item) if isinstance(item, dict) else str(item)))
    if op == 'instances':
        value = proxy('/org/bluez/' + command['name'], dbus.PROPERTIES_IFACE).GetAll('org.bluez.LEAdvertisingManager1')
        return [int(value['ActiveInstances']), int(value['SupportedInstances'])]
    if op == 'release':
        return mock_call('ReleaseAdvertising', 's', in_namespace('release(self, *args)'), command['name'])
    if op == 'delay_unregister':
        return mock_call('DelayUnregister', 'sd', in_namespace('delay_unregister(self, *args)'), command['name'],
                         float(command['seconds']))
    if op == 'refuse_unregister':
        return mock_call('RefuseUnregister', 's', in_namespace('refuse_unregister(self, *args)'), command['name'])
    raise ValueError('unknown op ' + op)


for line in sys.stdin:
    try:
        value = run(json.loads(line))
        print(json.dumps({'ok': True, 'value': value}), flush=True)
    except Exception as error:  # the test reads the message
        print(json.dumps({'ok': False, 'error': str(error)}), flush=True)
