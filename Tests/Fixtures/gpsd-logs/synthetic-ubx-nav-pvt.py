#!/usr/bin/env python3
"""Writes synthetic-ubx-nav-pvt.log to stdout: a u-blox binary (UBX) log of 30 NAV-PVT messages, one a second
from 2024-05-01T12:00:10Z, made for Waymark's tests (CC0): 5 s standing in Regensburg, 15 s driving north at
10 m/s (track 0), 10 s standing. No NMEA at all: gpsd reads it with its u-blox driver. The vertical accuracy,
31,498 mm (0x7B0A), is written as the bytes 0A 7B, a newline and a "{": every frame has a "line" that starts
with "{", as a large binary log has somewhere, and it is still no gpsd JSON capture.

    Tests/Fixtures/gpsd-logs/synthetic-ubx-nav-pvt.py > Tests/Fixtures/gpsd-logs/synthetic-ubx-nav-pvt.log
"""
import struct
import sys


def ubx(message_class, message_id, payload):
    """One UBX frame: sync bytes, class, id, little-endian length, payload, 8-bit Fletcher checksum."""
    body = bytes([message_class, message_id]) + struct.pack("<H", len(payload)) + payload
    a = b = 0
    for byte in body:
        a = (a + byte) & 0xFF
        b = (b + a) & 0xFF
    return b"\xb5\x62" + body + bytes([a, b])


def nav_pvt(second, latitude, speed):
    """UBX-NAV-PVT (0x01 0x07, 92 bytes): a valid 3D fix, 9 satellites, 2.5 m / 31.5 m accuracy."""
    payload = struct.pack(
        "<IHBBBBBBIiBBBBiiiiIIiiiiiIIHBBBBBBihH",
        (3 * 86400 + 12 * 3600 + second) * 1000,  # iTOW (ms of the GPS week: Wednesday)
        2024, 5, 1, 12, 0, second,  # UTC date and time
        0x07, 20, 0,  # valid date, time, fully resolved; tAcc 20 ns; nano 0
        3, 0x01, 0, 9,  # fixType 3D, gnssFixOK, flags2, numSV
        120969000, latitude,  # lon, lat (1e-7 degrees)
        400000, 352000, 2500, 0x7B0A,  # height, hMSL, hAcc, vAcc (mm)
        speed, 0, 0, speed, 0,  # velN, velE, velD, gSpeed (mm/s), headMot (1e-5 degrees)
        300, 50000, 150,  # sAcc (mm/s), headAcc (1e-5 degrees), pDOP (0.01)
        0, 0, 0, 0, 0, 0,  # flags3, reserved
        0, 0, 0,  # headVeh, magDec, magAcc
    )
    assert len(payload) == 92
    return ubx(0x01, 0x07, payload)


log = bytearray(b"# Name: synthetic u-blox NAV-PVT drive, made for Waymark's tests (CC0)\n")
latitude = 490131000
for step in range(30):
    moving = 5 <= step < 20
    log += nav_pvt(10 + step, latitude, 10000 if moving else 0)
    if moving:
        latitude += 898  # 10 m north
sys.stdout.buffer.write(log)
