import LocationTable from '../../../components/Location/LocationTable.tsx';

/** Basic records → storage locations (menu basic_location): every warehouse's locations, filtered by warehouse. */
export default function LocationPage() {
  return (
    <div className="p8-basic-location">
      <LocationTable />
    </div>
  );
}
