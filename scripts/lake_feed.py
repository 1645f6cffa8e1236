"""A small GTFS feed for the web app's checks: boats on a lake near the simulated walk's start."""
import os


def lake_feed(folder):
    """A small GTFS feed near the walk's start: boats every half hour, every day of 2026-2027."""
    os.makedirs(folder, exist_ok=True)
    trips, times = ["route_id,service_id,trip_id,trip_headsign"], ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    for hour in range(6, 23):
        for minute in (0, 30):
            trip = "T%02d%02d" % (hour, minute)
            trips.append("R1,DAY,%s,Thalwil" % trip)
            for stop, later in (("BU", 0), ("KU", 20), ("TH", 28)):
                clock = "%02d:%02d:00" % (hour, minute + later) if minute + later < 60 else "%02d:%02d:00" % (hour + 1, minute + later - 60)
                times.append("%s,%s,%s,%s,%d" % (trip, clock, clock, stop, ("BU", "KU", "TH").index(stop) + 1))
    files = {
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nZSG,Lake boats,https://example.org,Europe/Zurich\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nBU,Zürich Bürkliplatz,47.3655,8.5410\nKU,Küsnacht,47.3186,8.5800\nTH,Thalwil,47.2950,8.5650\n",
        "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR1,3730,Lake round,4\n",
        "trips.txt": "\n".join(trips) + "\n",
        "stop_times.txt": "\n".join(times) + "\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAY,1,1,1,1,1,1,1,20260101,20271231\n",
    }
    for name, text in files.items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    return folder
