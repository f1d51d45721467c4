#!/usr/bin/python3
"""What beacons cost the agent: 200 iBeacons advertising 10 times a second each (2,000 reports a second through
D-Bus, from python3-dbusmock's BlueZ stand-in on a dbus-daemon of our own) into `waymark run` with a ranged beacon
region matching all of them, next to the same agent without beacons (its peer, measured in the same rounds).

    scripts/measure-beacons.py [ROUND_SECONDS] [ROUNDS]        (defaults: 20 and 3)

Prints per round each agent's CPU (utime + stime of /proc/PID/stat, % of one core), the CPU per report and the
agents' RSS after the round; then the medians. Uses the static release build (scripts/build-release.sh) unless
WAYMARK_BINARY names one.
"""
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROUND = float(sys.argv[1]) if len(sys.argv) > 1 else 20
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
BEACONS, RATE = 200, 10
TICKS = os.sysconf('SC_CLK_TCK')


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def cpu_seconds(pid):
    fields = open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
    return 0.0


def main():
    subprocess.run([os.path.join(ROOT, 'scripts/install-deps.sh'), '--tests'], check=True, stdout=subprocess.DEVNULL)
    binary = os.environ.get('WAYMARK_BINARY') or subprocess.run(
        [os.path.join(ROOT, 'scripts/build-release.sh')], check=True, capture_output=True, text=True).stdout.strip()
    work = tempfile.mkdtemp(prefix='waymark-beacons-')
    children = []
    try:
        address = f'unix:path={work}/bus.sock'
        with open(f'{work}/bus.conf', 'w') as config:
            config.write(f'''<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>{address}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
''')
        children.append(subprocess.Popen(['dbus-daemon', f'--config-file={work}/bus.conf', '--nofork', '--nopidfile']))
        while not os.path.exists(f'{work}/bus.sock'):
            time.sleep(0.01)
        mock_env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
        children.append(subprocess.Popen(['/usr/bin/python3', '-m', 'dbusmock', '--system', '--template', 'bluez5'],
                                         env=mock_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        driver = subprocess.Popen(['/usr/bin/python3', os.path.join(ROOT, 'Tests/Fixtures/bluez/bluez-driver.py'),
                                   address], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        children.append(driver)

        def send(**command):
            driver.stdin.write(json.dumps(command) + '\n')
            driver.stdin.flush()
            answer = json.loads(driver.stdout.readline())
            if not answer['ok']:
                raise RuntimeError(answer['error'])
            return answer['value']

        for _ in range(300):
            try:
                send(op='adapter', name='hci0')
                break
            except RuntimeError:
                time.sleep(0.05)
        gpsd_port = free_port()
        children.append(subprocess.Popen(['/usr/sbin/gpsd', '-N', '-S', str(gpsd_port), '-F', f'{work}/gpsd.sock'],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with open(f'{work}/regions.geojson', 'w') as regions:
            regions.write('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": null, '
                          '"properties": {"id": "fleet", "ranging": true, '
                          '"beacon": {"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}}]}')
        agents = {}
        for name, beacons in (('without beacons', ''), ('200 beacons', f'[beacons]\nenabled = true\nbus = "{address}"\n')):
            directory = f'{work}/{len(agents)}'
            os.makedirs(directory)
            with open(f'{directory}/waymark.toml', 'w') as config:
                config.write(f'[agent]\nstate_dir = "{directory}/state"\nlog_dir = "{directory}/log"\n'
                             f'runtime_dir = "{directory}/run"\n[regions]\nfile = "{work}/regions.geojson"\n{beacons}')
            agents[name] = subprocess.Popen([binary, 'run', '--config', f'{directory}/waymark.toml', '--gpsd',
                                             f'127.0.0.1:{gpsd_port}'], stdout=subprocess.DEVNULL,
                                            stderr=open(f'{directory}/stderr', 'w'))
            children.append(agents[name])
        while not send(op='discovering', name='hci0'):
            time.sleep(0.1)
        time.sleep(2)
        results = {name: {'cpu': [], 'rss': []} for name in agents}
        for round_number in range(1, ROUNDS + 1):
            before = {name: cpu_seconds(agent.pid) for name, agent in agents.items()}
            start = time.monotonic()
            sent = send(op='flood', name='hci0', count=BEACONS, rate=RATE, seconds=ROUND)
            elapsed = time.monotonic() - start
            time.sleep(0.5)  # the last batch
            line = f'round {round_number}: {sent} reports in {elapsed:.1f} s ({sent / elapsed:.0f}/s)'
            for name, agent in agents.items():
                seconds = cpu_seconds(agent.pid) - before[name]
                results[name]['cpu'].append(seconds)
                results[name]['rss'].append(rss_mb(agent.pid))
                line += f'; {name}: {100 * seconds / elapsed:.2f} % CPU, {results[name]["rss"][-1]:.1f} MB RSS'
            results['200 beacons'].setdefault('per', []).append(
                (results['200 beacons']['cpu'][-1] - results['without beacons']['cpu'][-1]) / sent * 1e6)
            print(line, flush=True)
        beacons, peer = results['200 beacons'], results['without beacons']
        print(f'median over {ROUNDS} rounds of {ROUND:.0f} s: 200 beacons '
              f'{100 * statistics.median(beacons["cpu"]) / ROUND:.2f} % of one core, without beacons '
              f'{100 * statistics.median(peer["cpu"]) / ROUND:.2f} %; '
              f'{statistics.median(beacons["per"]):.2f} µs of CPU per report above the peer; '
              f'RSS {beacons["rss"][0]:.1f} → {beacons["rss"][-1]:.1f} MB (peer {peer["rss"][0]:.1f} → {peer["rss"][-1]:.1f})')
        for name, agent in agents.items():
            agent.send_signal(signal.SIGINT)
            agent.wait(timeout=30)
        counters = open(f'{work}/1/stderr').read().split('counters=')[-1][:400]
        print('agent with beacons stopped:', ' '.join(c for c in counters.split() if c.startswith('beacon')))
    finally:
        for child in reversed(children):
            if child.poll() is None:
                child.kill()
                child.wait()
        subprocess.run(['rm', '-rf', work])


if __name__ == '__main__':
    main()
